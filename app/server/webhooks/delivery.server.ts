import { Webhook } from "standardwebhooks";
import { escapeHtml } from "~/lib/escape-html.ts";
import { sqlNames, type RunStatement } from "../db/index.server.ts";
import { sendOutbound, type OutboundRule } from "../egress/index.server.ts";
import { log } from "../log.server.ts";
import { emailRow, queueEmailsCte, type ClaimedRow, type DeliveryQueue } from "../outbox/index.server.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "./schema.server.ts";

/**
 * Delivering webhooks as Standard Webhooks says: a POST of the JSON payload with `webhook-id`, `webhook-timestamp`
 * and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the endpoint's secret),
 * any 2xx answer whole within 15 s accepted, anything else retried on the specification's schedule. The outbox's lease
 * loop claims each delivery, so two instances never send one twice.
 */

/** The outbox queue's name: what `outbox.nudge()` wakes after a delivery is queued. */
export const WEBHOOK_QUEUE = "webhooks";

/**
 * The wait before each retry, after the first attempt (made at once): Standard Webhooks' schedule of 5 seconds,
 * 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours and 10 hours. After the eighth attempt the delivery has failed.
 */
const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** An endpoint failing this long (every attempt since) is turned off, and the operator emailed once. */
const DISABLE_AFTER_MS = 5 * 86_400_000;

/** How long an endpoint has to answer, its whole answer: status, headers and body. */
const TIMEOUT_MS = 15_000;

/** Deliveries to one endpoint in flight at once; other endpoints' are sent meanwhile, never waiting for these. */
const SENDS_PER_ENDPOINT = 4;

/** How much of an answer's body each attempt keeps, for the operator to read. */
const RESPONSE_KEPT_BYTES = 2_048;

const d = sqlNames(webhookDeliveries);
const e = sqlNames(webhookEndpoints);
const a = sqlNames(webhookAttempts);

type ClaimedDelivery = ClaimedRow & {
  message_id: string;
  body: string;
  url: string | null;
  secret: string | null;
  /** The secret before the last roll, while it still signs beside the new one. */
  previous_secret: string | null;
  /** The endpoint is there and on. */
  enabled: boolean;
};

const endpointOf = (column: string) =>
  `(SELECT endpoint.${column} FROM ${e.table} AS endpoint WHERE endpoint.${e.id} = ${d.table}.${d.endpointId})`;

/**
 * The attempt, kept, with its outcome on the delivery and the endpoint's health, in one statement; a 5th day of
 * failures turns the endpoint off and emails.
 */
const RECORD_ATTEMPT = `WITH attempt AS (
  UPDATE ${d.table} SET ${d.lastAttemptAt} = now(), ${d.statusCode} = $3, ${d.durationMs} = $4
  WHERE ${d.id} = $1 AND ${d.attempts} = $2
  RETURNING ${d.endpointId} AS endpoint_id
),
kept AS (
  INSERT INTO ${a.table} (${a.deliveryId}, ${a.statusCode}, ${a.durationMs}, ${a.error}, ${a.responseHead})
  SELECT $1, $3, $4, $8, $9 FROM attempt
),
endpoint AS (
  UPDATE ${e.table} AS endpoint SET
    ${e.failingSince} = CASE WHEN $5::boolean THEN NULL ELSE COALESCE(endpoint.${e.failingSince}, now()) END,
    ${e.disabledAt} = CASE
      WHEN NOT $5::boolean AND endpoint.${e.disabledAt} IS NULL
        AND endpoint.${e.failingSince} <= now() - $6 * interval '1 millisecond' THEN now()
      ELSE endpoint.${e.disabledAt} END
  FROM attempt WHERE endpoint.${e.id} = attempt.endpoint_id
  RETURNING endpoint.${e.disabledAt} IS NOT DISTINCT FROM now() AS just_disabled
),
${queueEmailsCte({ rows: "$7", where: "EXISTS (SELECT 1 FROM endpoint WHERE just_disabled)" })}
SELECT EXISTS (SELECT 1 FROM endpoint WHERE just_disabled) AS disabled`;

/** A delivery whose endpoint was turned off or removed: it is given up at once. */
class EndpointOff extends Error {}

export interface WebhookDeliverySettings {
  run: RunStatement;
  /** Where deliveries may connect: public addresses over https, unless WEBHOOK_ALLOW_PRIVATE; checked as each connects. */
  rule: OutboundRule;
  /** Who is told when an endpoint is turned off. */
  leadsEmailTo: string;
  siteUrl: string;
  companyName: string;
  messageIdDomain: string;
}

/** The email telling the operator an endpoint was turned off. */
function disabledEmail(url: string, settings: WebhookDeliverySettings) {
  const page = `${settings.siteUrl}/admin/integrations`;
  const intro = `Every delivery to this webhook endpoint has failed for 5 days, so ${settings.companyName} stopped sending to it:`;
  const next = "Fix the receiving end, then turn the endpoint on again on the Integrations page.";
  return {
    purpose: "webhook_disabled",
    to: settings.leadsEmailTo,
    replyTo: null,
    subject: "A webhook endpoint was turned off",
    text: `${intro}\n\n${url}\n\n${next}\n${page}\n`,
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#111"><p>${escapeHtml(intro)}</p><p>${escapeHtml(url)}</p><p>${escapeHtml(next)}</p><p><a href="${escapeHtml(page)}">Integrations</a></p></body></html>`,
  };
}

/** The outbox queue that delivers webhooks. */
export function webhookQueue(settings: WebhookDeliverySettings): DeliveryQueue<ClaimedDelivery> {
  async function recordAttempt(
    row: ClaimedDelivery,
    outcome: { statusCode: number | null; durationMs: number; ok: boolean; error: string | null; body: string },
  ) {
    const { statusCode, durationMs, ok } = outcome;
    try {
      const [recorded] = await settings.run<{ disabled: boolean }>("webhooks_record_attempt", RECORD_ATTEMPT, [
        row.id,
        row.attempts,
        statusCode,
        durationMs,
        ok,
        DISABLE_AFTER_MS,
        JSON.stringify([emailRow(disabledEmail(row.url ?? "", settings), settings.messageIdDomain)]),
        outcome.error?.slice(0, 1_000) ?? null,
        firstBytes(outcome.body, RESPONSE_KEPT_BYTES),
      ]);
      if (recorded?.disabled) log.warn({ deliveryId: row.id }, "webhook endpoint turned off after 5 days of failures");
    } catch (error) {
      // The delivery's own outcome is still recorded by the outbox; only its figures are missing.
      log.error(`webhooks: cannot record an attempt: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return {
    name: WEBHOOK_QUEUE,
    names: d,
    // One endpoint's slow or failing receiver never delays another's deliveries.
    group: d.endpointId,
    sendsAtOnce: SENDS_PER_ENDPOINT,
    returning: `${d.messageId} AS message_id, ${d.payload}::text AS body, ${endpointOf(e.url)} AS url,
  ${endpointOf(e.secret)} AS secret,
  (SELECT CASE WHEN endpoint.${e.previousSecretUntil} > now() THEN endpoint.${e.previousSecret} END
    FROM ${e.table} AS endpoint WHERE endpoint.${e.id} = ${d.table}.${d.endpointId}) AS previous_secret,
  COALESCE(${endpointOf(`${e.disabledAt} IS NULL`)}, false) AS enabled`,
    async deliver(row, signal) {
      if (!row.enabled || !row.url || !row.secret) throw new EndpointOff("the endpoint is turned off or removed");
      const timestamp = new Date();
      const headers = {
        "webhook-id": row.message_id,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        // After a roll, signed with the new secret and the old one (space-separated, as the specification allows),
        // so a receiving end still holding the old secret verifies every delivery until it is given the new one.
        "webhook-signature": [row.secret, row.previous_secret]
          .filter((secret) => secret !== null)
          .map((secret) => new Webhook(secret).sign(row.message_id, timestamp, row.body))
          .join(" "),
        "content-type": "application/json",
        "user-agent": "Plumbline-Webhooks",
      };
      const started = performance.now();
      let status: number;
      let answer: string;
      try {
        // Redirects are not followed: a 3xx is a failed attempt.
        ({ status, body: answer } = await sendOutbound(new URL(row.url), {
          method: "POST",
          headers,
          body: row.body,
          signal,
          timeoutMs: TIMEOUT_MS,
          rule: settings.rule,
        }));
      } catch (error) {
        // A send the outbox cut short (shutdown, lease) is returned untouched; any other is a failed attempt.
        if (!signal.aborted) {
          const reason = error instanceof Error ? error.message : String(error);
          const durationMs = Math.round(performance.now() - started);
          await recordAttempt(row, { statusCode: null, durationMs, ok: false, error: reason, body: "" });
        }
        throw error;
      }
      const ok = status >= 200 && status < 300;
      const error = ok ? null : `the endpoint answered ${status}`;
      await recordAttempt(row, {
        statusCode: status,
        durationMs: Math.round(performance.now() - started),
        ok,
        error,
        body: answer,
      });
      if (error) throw new Error(error);
    },
    retryDelayMs: (attempts, failure) =>
      failure instanceof EndpointOff ? null : (RETRY_SCHEDULE_MS[attempts - 1] ?? null),
  };
}

/** The start of a text, at most `bytes` of it in UTF-8, never a character cut in two. */
function firstBytes(text: string, bytes: number): string {
  const encoded = Buffer.from(text, "utf8");
  if (encoded.length <= bytes) return text;
  return new TextDecoder("utf-8", { fatal: false }).decode(encoded.subarray(0, bytes)).replace(/\uFFFD$/, "");
}

/**
 * Deliveries are kept this long after they were queued (their payloads hold leads' contact details), then deleted
 * with their attempts.
 */
const KEPT_FOR_DAYS = 30;

/** Deliveries deleted per statement: each statement is short, so leads arriving meanwhile are never held up long. */
const PURGE_BATCH = 500;

const PURGE = `DELETE FROM ${d.table} WHERE ${d.id} IN (
  SELECT ${d.id} FROM ${d.table}
  WHERE ${d.createdAt} < now() - $1 * interval '1 day' AND (${d.sentAt} IS NOT NULL OR ${d.failedAt} IS NOT NULL)
  ORDER BY ${d.createdAt} LIMIT ${PURGE_BATCH}
) RETURNING 1`;

/**
 * Deletes settled deliveries past their keeping time, oldest first and PURGE_BATCH a statement (hourly
 * housekeeping). Returns how many went.
 */
export async function purgeOldDeliveries(run: RunStatement): Promise<number> {
  let purged = 0;
  for (;;) {
    const deleted = (await run("webhooks_purge", PURGE, [KEPT_FOR_DAYS])).length;
    purged += deleted;
    if (deleted < PURGE_BATCH) return purged;
  }
}
