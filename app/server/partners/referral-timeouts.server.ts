import type { Database, RunStatement } from "../db/index.server.ts";
import { sqlNames } from "../db/index.server.ts";
import {
  emailRow,
  messageRow,
  queueEmailsCte,
  queueMessagesCte,
  type EmailToSend,
  type MessageToSend,
} from "../outbox/index.server.ts";
import { leadEventRows, recordLeadEventsCte, referralJob } from "../leads/index.server.ts";
import { partners, referrals } from "./schema.server.ts";

/**
 * Referrals nobody answered: a lead whose offers have waited REFERRAL_TIMEOUT_MINUTES with no acceptance and no
 * answer alerts the operator, and a link past its expiry is recorded in the lead's history. Each is claimed in the
 * statement that records or alerts it, so with several instances it happens once.
 */

const r = sqlNames(referrals);
const p = sqlNames(partners);

const noAcceptance = (lead: string) =>
  `NOT EXISTS (SELECT 1 FROM ${r.table} AS other WHERE other.${r.contactRequestId} = ${lead} AND other.${r.answer} = 'accepted')`;

const FIND_EXPIRED = `SELECT referral.${r.id} AS id, referral.${r.contactRequestId} AS lead_id, partner.${p.name} AS partner_name
FROM ${r.table} AS referral JOIN ${p.table} AS partner ON partner.${p.id} = referral.${r.partnerId}
WHERE referral.${r.answer} IS NULL AND referral.${r.expiredAt} IS NULL AND referral.${r.expiresAt} <= now()
LIMIT 100`;

const RECORD_EXPIRY = `WITH expired AS (
  UPDATE ${r.table} SET ${r.expiredAt} = now()
  WHERE ${r.id} = $1::uuid AND ${r.answer} IS NULL AND ${r.expiredAt} IS NULL AND ${r.expiresAt} <= now()
  RETURNING ${r.contactRequestId} AS lead_id
),
${recordLeadEventsCte({ name: "events", rows: "$2", when: "expired" })}
SELECT count(*)::int AS expired FROM expired`;

/**
 * An offer still waiting for its answer or its alert, past the timeout (shorter than its link's life). An offer
 * whose expiry is recorded waits no more: the sweep alerts before it records expiries, so an offer left unanswered
 * while another partner took the job is read until its link expires, not every 30 seconds for the rest of the year.
 */
const unalerted = (minutes: string) => `${r.timeoutAlertedAt} IS NULL AND ${r.answeredAt} IS NULL
  AND ${r.expiredAt} IS NULL AND ${r.offeredAt} <= now() - ${minutes} * interval '1 minute'`;

/**
 * The leads with offers still waiting past the timeout and no acceptance. The waiting offers are read first, by
 * their own index, and each one's acceptance looked up by its lead. Planned as one statement, the planner took
 * answered and unexpired offers for independent, expected many offers waiting where there were few, and read every
 * referral to match them with the acceptances.
 */
const FIND_TIMED_OUT = `WITH waiting AS MATERIALIZED (
  SELECT referral.${r.contactRequestId} AS lead_id FROM ${r.table} AS referral WHERE ${unalerted("$1")}
)
SELECT DISTINCT waiting.lead_id FROM waiting
LEFT JOIN LATERAL (
  SELECT 1 AS taken FROM ${r.table} AS other
  WHERE other.${r.contactRequestId} = waiting.lead_id AND other.${r.answer} = 'accepted' LIMIT 1
) acceptance ON true
WHERE acceptance.taken IS NULL
LIMIT 50`;

const ALERT_TIMEOUT = `WITH alerted AS (
  UPDATE ${r.table} AS referral SET ${r.timeoutAlertedAt} = now()
  WHERE referral.${r.contactRequestId} = $1::uuid AND ${unalerted("$2")} AND ${noAcceptance("$1::uuid")}
  RETURNING referral.${r.contactRequestId} AS lead_id
),
claimed AS (SELECT DISTINCT lead_id AS id FROM alerted),
${queueEmailsCte({ rows: "$3", request: { column: "contact", from: "claimed" } })},
${queueMessagesCte({ rows: "$4", from: "claimed" })}
SELECT count(*)::int AS alerted FROM claimed`;

/** How the operator is alerted (the alerts module renders it). */
export type RenderAlert = (alert: {
  purpose: string;
  headline: string;
  explanation: string;
  leadId: string;
  service: string;
}) => { emails: EmailToSend[]; messages: MessageToSend[] };

export async function sweepReferrals(
  db: Database,
  run: RunStatement,
  settings: { timeoutMinutes: number; messageIdDomain: string; alert: RenderAlert },
): Promise<{ expired: number; alerted: number }> {
  let alerted = 0;
  for (const { lead_id: leadId } of await run<{ lead_id: string }>("referrals_find_timed_out", FIND_TIMED_OUT, [
    settings.timeoutMinutes,
  ])) {
    const job = await referralJob(db, leadId);
    if (!job) continue;
    const alert = settings.alert({
      purpose: "unanswered_referral_alert",
      headline: "Unanswered referral",
      explanation: `No partner has answered this lead's referral within ${settings.timeoutMinutes} minutes.`,
      leadId,
      service: job.service,
    });
    const [row] = await run<{ alerted: number }>("referrals_alert_timeout", ALERT_TIMEOUT, [
      leadId,
      settings.timeoutMinutes,
      JSON.stringify(alert.emails.map((email) => emailRow(email, settings.messageIdDomain))),
      JSON.stringify(alert.messages.map(messageRow)),
    ]);
    alerted += row?.alerted ?? 0;
  }
  let expired = 0;
  for (const row of await run<{ id: string; lead_id: string; partner_name: string }>(
    "referrals_find_expired",
    FIND_EXPIRED,
    [],
  )) {
    const [recorded] = await run<{ expired: number }>("referrals_record_expiry", RECORD_EXPIRY, [
      row.id,
      leadEventRows([
        { leadId: row.lead_id, by: row.partner_name, note: `Referral to ${row.partner_name} expired unanswered` },
      ]),
    ]);
    expired += recorded?.expired ?? 0;
  }
  return { expired, alerted };
}
