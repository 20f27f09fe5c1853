import { randomUUID } from "node:crypto";
import { sqlNames, type RunStatement } from "../db/index.server.ts";
import { queueEmailsCte, type DeliveryQueue, type ClaimedRow } from "../outbox/index.server.ts";
import type { TwilioClient } from "../twilio/index.server.ts";
import { textBackCapAlerts, textBacks, textMessages, textOptOuts } from "./schema.server.ts";

/**
 * Texts to customers: queued in one statement that first checks the number has not opted out, delivered by the
 * outbox's lease loop from this module's own table, and followed through Twilio's status callbacks.
 */

const t = sqlNames(textMessages);
const o = sqlNames(textOptOuts);
const b = sqlNames(textBacks);
const a = sqlNames(textBackCapAlerts);

/** The outbox queue of texts to customers (what `nudge()` wakes). */
export const TEXT_QUEUE = "texts";

/** What a text to a customer is: the operator's, the missed-call text-back, or the answer to HELP. */
export type OutgoingPurpose = "operator_text" | "missed_call_text_back" | "help_reply";

export interface TextToQueue {
  customer: string;
  ours: string;
  body: string;
  purpose: OutgoingPurpose;
  /** When it may go: now, or 08:00 for an automatic text in quiet hours. */
  sendAt: Date;
}

const notOptedOut = (number: string) => `NOT EXISTS (SELECT 1 FROM ${o.table} WHERE ${o.number} = ${number})`;

const insertText = (from: string) => `INSERT INTO ${t.table} (${t.id}, ${t.customer}, ${t.ours}, ${t.direction},
  ${t.body}, ${t.status}, ${t.purpose}, ${t.nextAttemptAt})
SELECT $1, $2, $3, 'out', $4, 'queued', $5, $6 FROM ${from} WHERE ${notOptedOut("$2")}
RETURNING ${t.id} AS id`;

const QUEUE_TEXT = insertText("(SELECT 1) AS one");

/**
 * The text-back: below the hourly cap ($7), its turn is taken in `text_backs` (one per number per 24 hours, whichever
 * instance gets there first) and the text queued, in one statement; a number that opted out takes no turn. A number's
 * row holds the time of its last text-back, so the rows of the last hour are the hour's text-backs. At the cap
 * nothing is queued, and the first call refused in a clock hour queues the operator's alert ($8).
 */
const QUEUE_TEXT_BACK = `WITH cap AS (
  SELECT count(*) >= $7 AS reached FROM ${b.table} WHERE ${b.queuedAt} > now() - interval '1 hour'
),
turn AS (
  INSERT INTO ${b.table} (${b.number}, ${b.queuedAt})
  SELECT $2, now() FROM cap WHERE NOT cap.reached AND ${notOptedOut("$2")}
  ON CONFLICT (${b.number}) DO UPDATE SET ${b.queuedAt} = now()
  WHERE ${b.table}.${b.queuedAt} <= now() - interval '24 hours'
  RETURNING 1
),
texted AS (${insertText("turn")}),
alerted AS (
  INSERT INTO ${a.table} (${a.hour}) SELECT date_trunc('hour', now()) FROM cap WHERE cap.reached
  ON CONFLICT DO NOTHING RETURNING 1
),
${queueEmailsCte({ rows: "$8", where: "EXISTS (SELECT 1 FROM alerted)" })}
SELECT (SELECT count(*) FROM texted)::int AS queued, (SELECT count(*) FROM alerted)::int AS alerted`;

const PRUNE_CAP_ALERTS = `DELETE FROM ${a.table} WHERE ${a.hour} < now() - interval '2 days'`;

const values = (text: TextToQueue) => [randomUUID(), text.customer, text.ours, text.body, text.purpose, text.sendAt];

/** Queues a text; false when the number opted out. */
export async function queueText(run: RunStatement, text: TextToQueue): Promise<boolean> {
  const queued = await run<{ id: string }>(`texts_queue_${text.purpose}`, QUEUE_TEXT, values(text));
  return queued.length > 0;
}

/**
 * Queues a missed call's text-back: "queued"; "skipped" when the number opted out or had one in the last 24
 * hours, or the hour's cap is reached; `alerted` when this call was the first refused by the cap in its clock hour,
 * and `alertEmails` (emailRow values) were queued with it.
 */
export async function queueTextBack(
  run: RunStatement,
  text: Omit<TextToQueue, "purpose">,
  cap: { perHour: number; alertEmails: unknown[] },
): Promise<{ queued: boolean; alerted: boolean }> {
  const [row] = await run<{ queued: number; alerted: number }>("texts_queue_text_back", QUEUE_TEXT_BACK, [
    ...values({ ...text, purpose: "missed_call_text_back" }),
    cap.perHour,
    JSON.stringify(cap.alertEmails),
  ]);
  // Hours of cap alerts past the window are of no further use.
  if (row?.alerted) await run("texts_prune_cap_alerts", PRUNE_CAP_ALERTS, []);
  return { queued: (row?.queued ?? 0) > 0, alerted: (row?.alerted ?? 0) > 0 };
}

interface ClaimedText extends ClaimedRow {
  customer: string;
  ours: string;
  body: string;
  opted_out: boolean;
}

/** The number replied STOP after the text was queued: it is never sent. */
class OptedOut extends Error {}

const RECORD_SID = `UPDATE ${t.table} SET ${t.twilioSid} = COALESCE(${t.twilioSid}, $2),
  ${t.status} = CASE WHEN ${t.status} = 'queued' THEN 'sent' ELSE ${t.status} END
WHERE ${t.id} = $1`;

/**
 * The outbox queue that sends texts to customers through Twilio. Each names its row in its status callback's URL,
 * so Twilio's first callback marks it sent even if this server stopped before it could: a restart after a crash
 * then does not send it again.
 */
export function textQueue(settings: {
  run: RunStatement;
  twilio: TwilioClient;
  statusCallbackUrl: string;
}): DeliveryQueue<ClaimedText> {
  return {
    name: TEXT_QUEUE,
    names: t,
    returning: `${t.customer} AS customer, ${t.ours} AS ours, ${t.body} AS body,
  EXISTS (SELECT 1 FROM ${o.table} WHERE ${o.number} = ${t.table}.${t.customer}) AS opted_out`,
    async deliver(row, signal) {
      if (row.opted_out) throw new OptedOut("the number replied STOP");
      const { sid } = await settings.twilio.sendText(
        {
          to: row.customer,
          from: row.ours,
          body: row.body,
          statusCallback: `${settings.statusCallbackUrl}?text=${row.id}`,
        },
        signal,
      );
      await settings.run("texts_record_sid", RECORD_SID, [row.id, sid || null]);
    },
    retryDelayMs: (_attempts, failure) => (failure instanceof OptedOut ? null : undefined),
  };
}

/** Twilio's message states, as this console shows them. */
const STATUS_OF: Record<string, "sent" | "delivered" | "failed"> = {
  accepted: "sent",
  scheduled: "sent",
  queued: "sent",
  sending: "sent",
  sent: "sent",
  delivered: "delivered",
  read: "delivered",
  undelivered: "failed",
  failed: "failed",
};

/**
 * A status callback moves a text forward only (queued, sent, then delivered or failed), so callbacks arriving out of
 * order never take it back; any callback means Twilio has it, so it counts as sent.
 */
const RECORD_STATUS = `UPDATE ${t.table} SET
  ${t.twilioSid} = COALESCE(${t.twilioSid}, $2),
  ${t.sentAt} = COALESCE(${t.sentAt}, now()),
  ${t.status} = CASE
    WHEN ${t.status} IN ('delivered', 'failed') THEN ${t.status}
    WHEN $3 = 'sent' AND ${t.status} <> 'queued' THEN ${t.status}
    ELSE $3 END
WHERE ${t.id} = $1 AND ${t.direction} = 'out' AND (${t.twilioSid} IS NULL OR ${t.twilioSid} = $2)`;

/** Records a status callback; a state Twilio does not send, or a text no longer kept (purged), changes nothing. */
export async function recordTextStatus(
  run: RunStatement,
  callback: { textId: string; messageSid: string; status: string },
): Promise<void> {
  const status = STATUS_OF[callback.status];
  if (status) await run("texts_record_status", RECORD_STATUS, [callback.textId, callback.messageSid, status]);
}
