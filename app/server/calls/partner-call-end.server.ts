import { sqlNames, type RunStatement } from "../db/index.server.ts";
import { chargeCallCte } from "../ledger/index.server.ts";
import { queueWebhooksCte } from "../webhooks/index.server.ts";
import { CALL_WEBHOOK_DATA } from "./call-log.server.ts";
import { callOffers, calls, type CallBilling } from "./schema.server.ts";

/**
 * A partner's call ends: the offer and the call take its length, and in the same statement the partner is charged
 * their fee per call when it was billable: connected at least the billable seconds, not the same caller to the same
 * partner within the repeat-caller days, at a fee above zero. A charge is recorded once per call (the ledger's
 * unique index), so a callback Twilio repeats charges nothing more.
 */

const c = sqlNames(calls);
const o = sqlNames(callOffers);

const END = `WITH offer AS (
  UPDATE ${o.table} SET ${o.status} = 'ended', ${o.endedAt} = now(),
    ${o.talkSeconds} = greatest(0, $2::int - coalesce(extract(epoch FROM ${o.takenAt} - ${o.answeredAt})::int, 0))
  WHERE ${o.id} = $1 AND ${o.status} = 'taken'
  RETURNING ${o.callId} AS call_id, ${o.partnerId} AS partner_id, ${o.feeMinor} AS fee_minor, ${o.talkSeconds} AS talk_seconds
),
verdict AS (
  SELECT offer.*, CASE
    WHEN offer.talk_seconds < $3 THEN 'short'
    WHEN call.${c.caller} LIKE '+%' AND EXISTS (
      SELECT 1 FROM ${c.table} AS earlier
      WHERE earlier.${c.partnerId} = offer.partner_id AND earlier.${c.caller} = call.${c.caller}
        AND earlier.${c.billing} = 'billable' AND earlier.${c.id} <> call.${c.id}
        AND earlier.${c.startedAt} > call.${c.startedAt} - $4 * interval '1 day'
    ) THEN 'repeat-caller'
    WHEN offer.fee_minor <= 0 THEN 'no-fee'
    ELSE 'billable' END AS billing
  FROM offer JOIN ${c.table} AS call ON call.${c.id} = offer.call_id
),
ended AS (
  UPDATE ${c.table} SET ${c.status} = 'answered', ${c.durationSeconds} = verdict.talk_seconds, ${c.endedAt} = now(),
    ${c.partnerId} = verdict.partner_id, ${c.billing} = verdict.billing,
    ${c.chargeMinor} = CASE WHEN verdict.billing = 'billable' THEN verdict.fee_minor END
  FROM verdict WHERE ${c.table}.${c.id} = verdict.call_id AND ${c.table}.${c.status} = 'ringing'
  RETURNING ${c.table}.*
),
billed AS (
  SELECT ended.${c.partnerId} AS partner_id, ended.${c.id} AS call_id, ended.${c.chargeMinor} AS fee_minor,
    ended.${c.service} AS service, ended.${c.zip} AS zip,
    to_char(ended.${c.startedAt} AT TIME ZONE $5, 'YYYY-MM-DD') AS day,
    coalesce(ended.${c.utmSource}, ended.${c.referrerHost}, '') AS source, coalesce(ended.${c.utmCampaign}, '') AS campaign
  FROM ended WHERE ended.${c.billing} = 'billable'
),
${chargeCallCte("billed")},
${queueWebhooksCte({ name: "queued_webhooks", event: "call.completed", from: "ended", data: CALL_WEBHOOK_DATA })}
SELECT ended.${c.billing} AS billing, ended.${c.chargeMinor} AS charge_minor, ended.${c.durationSeconds} AS seconds,
  ended.${c.caller} AS caller, ended.${c.partnerId} AS partner_id, ended.${c.id} AS call_id,
  EXISTS (SELECT 1 FROM queued_webhooks) AS webhooks
FROM ended`;

export interface PartnerCallEnded {
  callId: string;
  partnerId: string;
  caller: string;
  seconds: number;
  billing: CallBilling;
  chargeMinor: number | null;
  /** `call.completed` webhooks were queued. */
  webhooks: boolean;
}

/** The taken call's Dial ended after `dialSeconds` (from the partner's answer); null when it was already recorded. */
export async function endPartnerCall(
  run: RunStatement,
  offerId: string,
  dialSeconds: number,
  settings: { billableSeconds: number; repeatCallerDays: number; timeZone: string },
): Promise<PartnerCallEnded | null> {
  const [row] = await run<{
    billing: CallBilling;
    charge_minor: number | null;
    seconds: number;
    caller: string;
    partner_id: string;
    call_id: string;
    webhooks: boolean;
  }>("calls_partner_end", END, [
    offerId,
    dialSeconds,
    settings.billableSeconds,
    settings.repeatCallerDays,
    settings.timeZone,
  ]);
  return row
    ? {
        callId: row.call_id,
        partnerId: row.partner_id,
        caller: row.caller,
        seconds: row.seconds,
        billing: row.billing,
        chargeMinor: row.charge_minor,
        webhooks: row.webhooks,
      }
    : null;
}
