import type { Env } from "~/config/env.server.ts";
import type { Database, RunStatement } from "../db/index.server.ts";
import { messageIdDomain } from "../outbox/index.server.ts";
import { createTexts, type TextsSettings } from "./texts.server.ts";

/**
 * Texts with customers, when Twilio can send them (a text sender, and TWILIO_FROM_NUMBER): the threads, the missed-call
 * text-back (MISSED_CALL_TEXT, at most MISSED_CALL_TEXT_PER_HOUR) and quiet hours (TEXT_QUIET_HOURS). Undefined
 * otherwise, and nothing changes.
 */
export function textsFromSettings(
  env: Env,
  database: { db: Database; run: RunStatement },
  options: Pick<TextsSettings, "numberCalledBy" | "onReceived" | "onQueued"> & { canSend: boolean },
) {
  if (!options.canSend || !env.TWILIO_FROM_NUMBER) return undefined;
  return createTexts({
    db: database.db,
    run: database.run,
    fromNumber: env.TWILIO_FROM_NUMBER,
    companyName: env.COMPANY_NAME,
    phoneDisplay: env.PHONE_DISPLAY,
    timeZone: env.OPERATOR_TIME_ZONE,
    quietHours: env.TEXT_QUIET_HOURS === "on",
    missedCallText: env.MISSED_CALL_TEXT === "on",
    textBackCap: {
      perHour: env.MISSED_CALL_TEXT_PER_HOUR,
      alertTo: env.LEADS_EMAIL_TO,
      siteUrl: env.SITE_URL,
      messageIdDomain: messageIdDomain(env.MAIL_FROM),
    },
    numberCalledBy: options.numberCalledBy,
    onReceived: options.onReceived,
    onQueued: options.onQueued,
  });
}
