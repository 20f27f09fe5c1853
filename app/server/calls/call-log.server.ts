import { randomUUID } from "node:crypto";
import { emailRow, queueEmailsCte } from "../outbox/index.server.ts";
import { queueWebhooksCte } from "../webhooks/index.server.ts";
import { sqlNames, type RunStatement } from "../db/index.server.ts";
import type { LeadAttribution } from "../leads/index.server.ts";
import { ROUTE_COLUMNS, routeOf, type CallRoute, type RouteRow } from "./call-route.server.ts";
import { holdAttributionColumns } from "./holds.server.ts";
import { missedCallEmail, type MissedCallEmailSettings } from "./missed-call-email.server.ts";
import { callOffers, calls, numberHolds, type CallLine, type CallStatus } from "./schema.server.ts";

/**
 * The call log as Twilio reports each call: the call arriving, the forwarded call's outcome, a voicemail, a
 * recording. Each step changes a call only from the state before it, so a callback Twilio repeats changes nothing.
 */

const c = sqlNames(calls);
const h = sqlNames(numberHolds);
const o = sqlNames(callOffers);

/** The ways a forwarded call is missed. */
export const MISSED_STATUSES = ["busy", "no-answer", "failed", "canceled"] as const satisfies CallStatus[];
export type MissedStatus = (typeof MISSED_STATUSES)[number];
const missedList = MISSED_STATUSES.map((status) => `'${status}'`).join(", ");

/**
 * A new call, tied to the visit holding the number it called, if any; a call already logged stays as it was. Either
 * way its route comes back, so that routing it takes no second statement.
 */
const LOG_CALL = `WITH hold AS (
  SELECT ${holdAttributionColumns.join(", ")} FROM ${h.table} WHERE ${h.number} = $4 AND ${h.heldUntil} > now()
), logged AS (
  INSERT INTO ${c.table} (${c.id}, ${c.callSid}, ${c.caller}, ${c.called}, ${c.line}, ${c.callerVerification},
    ${holdAttributionColumns.join(", ")})
  SELECT $1, $2, $3, $4, $5, $6, ${holdAttributionColumns.map((column) => `hold.${column}`).join(", ")}
  FROM (SELECT 1) AS one LEFT JOIN hold ON true
  ON CONFLICT (${c.callSid}) DO NOTHING
  RETURNING ${ROUTE_COLUMNS}
)
SELECT * FROM logged
UNION ALL
SELECT ${ROUTE_COLUMNS} FROM ${c.table} WHERE ${c.callSid} = $2 AND NOT EXISTS (SELECT 1 FROM logged)`;

export interface IncomingCall {
  callSid: string;
  caller: string;
  called: string;
  /** Twilio's `StirVerstat`, when it sent one. */
  callerVerification?: string | null;
}

export async function logIncomingCall(
  run: RunStatement,
  call: IncomingCall,
  numbers: { site: string; pool: readonly string[] },
): Promise<CallRoute | null> {
  const line: CallLine =
    call.called === numbers.site ? "website" : numbers.pool.includes(call.called) ? "pool" : "other";
  // Null only when the same call is being logged by another request at this moment.
  const [logged] = await run<RouteRow>("calls_log", LOG_CALL, [
    randomUUID(),
    call.callSid,
    call.caller,
    call.called,
    line,
    call.callerVerification ?? null,
  ]);
  return logged ? routeOf(logged) : null;
}

/** The attribution a call keeps from the visit that held its number. */
export const ATTRIBUTION_KEYS = [
  "landingPath",
  "referrerHost",
  "utmSource",
  "utmMedium",
  "utmCampaign",
  "utmTerm",
  "utmContent",
  "gclid",
  "gbraid",
  "wbraid",
  "msclkid",
  "fbclid",
] as const satisfies (keyof LeadAttribution)[];

const READ_RINGING = `SELECT ${c.caller} AS caller, ${c.called} AS called, ${c.startedAt} AS started_at,
  ${c.callerVerification} AS caller_verification,
  ${ATTRIBUTION_KEYS.map((key) => `${c[key]} AS "${key}"`).join(", ")}
FROM ${c.table} WHERE ${c.callSid} = $1 AND ${c.status} = 'ringing'`;

const utc = (column: string) => `to_char(ended.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A call as the `call.completed` webhook carries it (documented in the README), from the `ended` row. */
export const CALL_WEBHOOK_DATA = `jsonb_build_object('id', ended.${c.id}, 'started_at', ${utc(c.startedAt)},
  'ended_at', ${utc(c.endedAt)}, 'caller', ended.${c.caller}, 'called', ended.${c.called}, 'line', ended.${c.line},
  'status', ended.${c.status}, 'duration_seconds', ended.${c.durationSeconds}, 'zip', ended.${c.zip},
  'service', ended.${c.service}, 'partner_id', ended.${c.partnerId}, 'billing', ended.${c.billing},
  'charge_minor', ended.${c.chargeMinor},
  'attribution', jsonb_build_object(${ATTRIBUTION_KEYS.map((key) => `'${key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}', ended.${c[key]}`).join(", ")}))`;

/**
 * The outcome, once: only a ringing call takes it, and not one a partner took (its partner's Dial ends it); in the
 * same statement a missed one queues the operator's email, and every one its `call.completed` webhooks.
 */
const SET_OUTCOME = `WITH ended AS (
  UPDATE ${c.table} SET ${c.status} = $2, ${c.durationSeconds} = $3, ${c.endedAt} = now()
  WHERE ${c.callSid} = $1 AND ${c.status} = 'ringing'
    AND NOT EXISTS (SELECT 1 FROM ${o.table} WHERE ${o.callId} = ${c.table}.${c.id} AND ${o.status} = 'taken')
  RETURNING *
), ${queueEmailsCte({ rows: "$4", where: "EXISTS (SELECT 1 FROM ended)" })},
${queueWebhooksCte({ name: "queued_webhooks", event: "call.completed", from: "ended", data: CALL_WEBHOOK_DATA })}
SELECT count(*)::int AS changed, EXISTS (SELECT 1 FROM queued_webhooks) AS webhooks FROM ended`;

/** A call that ended: who called which number, and Twilio's verification of the caller ID, if any. */
export interface EndedCall {
  caller: string;
  called: string;
  callerVerification: string | null;
}

/** `webhooks`: webhook deliveries were queued with the outcome; `call`: who called which number. */
export type OutcomeChange = { kind: "recorded"; webhooks: boolean; call: EndedCall } | { kind: "unchanged" };

/** The forwarded call's outcome: answered with its duration, or missed (busy, no answer, failed, caller gave up). */
export async function recordOutcome(
  run: RunStatement,
  callSid: string,
  outcome: { status: "answered"; durationSeconds: number | null } | { status: MissedStatus },
  email: MissedCallEmailSettings & { messageIdDomain: string },
): Promise<OutcomeChange> {
  const [call] = await run<
    { caller: string; called: string; started_at: Date | string; caller_verification: string | null } & LeadAttribution
  >("calls_read_ringing", READ_RINGING, [callSid]);
  if (!call) return { kind: "unchanged" };
  const emails =
    outcome.status === "answered"
      ? []
      : [
          emailRow(
            missedCallEmail(
              {
                caller: call.caller,
                called: call.called,
                startedAt: new Date(call.started_at),
                how: describeMissed(outcome.status),
                attribution: Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, call[key]])) as LeadAttribution,
              },
              email,
            ),
            email.messageIdDomain,
          ),
        ];
  const [result] = await run<{ changed: number; webhooks: boolean }>("calls_outcome", SET_OUTCOME, [
    callSid,
    outcome.status,
    outcome.status === "answered" ? outcome.durationSeconds : null,
    JSON.stringify(emails),
  ]);
  return result && result.changed > 0
    ? {
        kind: "recorded",
        webhooks: result.webhooks,
        call: { caller: call.caller, called: call.called, callerVerification: call.caller_verification },
      }
    : { kind: "unchanged" };
}

function describeMissed(status: MissedStatus): string {
  return { busy: "Busy", "no-answer": "No answer", failed: "Failed", canceled: "The caller hung up" }[status];
}

const SET_VOICEMAIL = `UPDATE ${c.table} SET ${c.status} = 'voicemail', ${c.durationSeconds} = $3,
  ${c.recordingSid} = COALESCE(${c.recordingSid}, $2), ${c.recordingSeconds} = COALESCE(${c.recordingSeconds}, $3)
WHERE ${c.callSid} = $1 AND ${c.status} IN (${missedList})`;

/** A missed caller left a message. */
export async function recordVoicemail(
  run: RunStatement,
  callSid: string,
  recording: { sid: string; seconds: number },
): Promise<void> {
  await run("calls_voicemail", SET_VOICEMAIL, [callSid, recording.sid, recording.seconds]);
}

const SET_RECORDING = `UPDATE ${c.table} SET ${c.recordingSid} = $2, ${c.recordingSeconds} = $3
WHERE ${c.callSid} = $1 AND (${c.recordingSid} IS NULL OR ${c.recordingSid} = $2)`;

/** The call's recording is ready at Twilio (a recorded conversation, or a voicemail). */
export async function recordRecording(
  run: RunStatement,
  callSid: string,
  recording: { sid: string; seconds: number },
): Promise<void> {
  await run("calls_recording", SET_RECORDING, [callSid, recording.sid, recording.seconds]);
}
