import { createHmac } from "node:crypto";
import type { Env } from "~/config/env.server.ts";
import type { Database, RunStatement } from "../db/index.server.ts";
import { log } from "../log.server.ts";
import { messageIdDomain } from "../outbox/index.server.ts";
import { createAutoReferrals } from "./auto-referrals.server.ts";
import type { RenderAlert } from "./referral-timeouts.server.ts";
import { createReferrals } from "./referrals.server.ts";

/**
 * The key partners' links (referrals, and disputes of charged calls) are signed with: their own, derived from the
 * session key.
 */
export function partnerLinkKey(sessionSecret: string): string {
  return createHmac("sha256", sessionSecret).update("referral links").digest("hex");
}

/** How often each instance looks for monthly statements to issue. */
const STATEMENT_CHECK_MS = 15 * 60_000;

/**
 * Referrals to partners (offers, signed links, answers, returns), "Refer new leads automatically" (its rules' steps,
 * whose unanswered offers are alerted on with `alert`), and their monthly statements: due from the 1st at
 * 08:00 in OPERATOR_TIME_ZONE; each instance looks every 15 minutes, and each partner's statement of a month is
 * issued once (a unique index), whichever instance gets there first. stop() ends the statements' checks.
 */
export function startReferrals(
  env: Env,
  database: { db: Database; run: RunStatement },
  options: { sessionSecret: string; texts: boolean; alert: RenderAlert; onQueued: () => void },
) {
  const referrals = createReferrals({
    db: database.db,
    run: database.run,
    tokenKey: partnerLinkKey(options.sessionSecret),
    siteUrl: env.SITE_URL,
    messageIdDomain: messageIdDomain(env.MAIL_FROM),
    companyName: env.COMPANY_NAME,
    replyTo: env.LEADS_EMAIL_TO,
    tokenHours: env.REFERRAL_TOKEN_HOURS,
    returnWindowDays: env.RETURN_WINDOW_DAYS,
    statementDueDays: env.STATEMENT_DUE_DAYS,
    currency: env.CONVERSION_CURRENCY,
    timeZone: env.OPERATOR_TIME_ZONE,
    texts: options.texts,
    pageLimit: { perWindow: 30, windowSeconds: 600 },
    onQueued: options.onQueued,
  });
  const autoReferrals = createAutoReferrals({
    db: database.db,
    run: database.run,
    referrals,
    timeZone: env.OPERATOR_TIME_ZONE,
    timeoutMinutes: env.REFERRAL_TIMEOUT_MINUTES,
    messageIdDomain: messageIdDomain(env.MAIL_FROM),
    alert: options.alert,
    onQueued: options.onQueued,
  });
  let statementsRun: Promise<unknown> = Promise.resolve();
  const issueStatements = () =>
    (statementsRun = referrals
      .issueMonthlyStatements()
      .then((issued) => issued > 0 && log.info(`${issued} monthly statements issued`))
      .catch((error) => log.error({ err: error }, "monthly statements failed")));
  void issueStatements();
  const statementsTimer = setInterval(issueStatements, STATEMENT_CHECK_MS);
  statementsTimer.unref();
  return {
    referrals,
    autoReferrals,
    async stop() {
      clearInterval(statementsTimer);
      await statementsRun;
    },
  };
}
