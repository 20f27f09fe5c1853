import type { Env } from "~/config/env.server.ts";
import type { RunStatement } from "../db/index.server.ts";
import { messageIdDomain } from "../outbox/index.server.ts";
import { createLeadIntake, type LeadIntakeOptions } from "./intake.server.ts";
import { createLeadStore } from "./store.server.ts";

/** Lead intake: contact and opt-out requests stored with their emails, FORM_RATE_LIMIT_PER_HOUR per client. */
export function leadIntakeFromSettings(env: Env, run: RunStatement, onAccepted: LeadIntakeOptions["onAccepted"]) {
  return createLeadIntake({
    store: createLeadStore({
      run,
      formLimit: { perWindow: env.FORM_RATE_LIMIT_PER_HOUR, windowSeconds: 3_600 },
      messageIdDomain: messageIdDomain(env.MAIL_FROM),
    }),
    emailSettings: {
      companyName: env.COMPANY_NAME,
      leadsEmailTo: env.LEADS_EMAIL_TO,
      privacyEmail: env.LEGAL_OPERATOR_EMAIL,
      consentText: env.CONTACT_CONSENT_TEXT,
      timeZone: env.OPERATOR_TIME_ZONE,
    },
    onAccepted,
  });
}
