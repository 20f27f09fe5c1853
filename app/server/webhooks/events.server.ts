import { sqlNames } from "../db/index.server.ts";
import { webhookDeliveries, webhookEndpoints } from "./schema.server.ts";

/**
 * The events an endpoint can ask for, in the order the console offers them. Adding one is a line here and its
 * owner queueing it with `queueWebhooksCte` in the statement that stores what it tells of.
 */
export const WEBHOOK_EVENTS = [
  "lead.created",
  "lead.updated",
  "call.completed",
  "text.received",
  "referral.offered",
  "referral.accepted",
  "referral.declined",
  "return.requested",
  "return.decided",
  "ledger.entry.created",
  "statement.issued",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The event "Send test event" sends; every endpoint gets it when asked, whatever events it wants. */
export const TEST_EVENT = "webhook.test";

const e = sqlNames(webhookEndpoints);
const d = sqlNames(webhookDeliveries);

/** A timestamptz expression as payloads write times: ISO 8601 in UTC, to the millisecond. */
export const isoUtc = (instant: string) => `to_char(${instant} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The event's time as Standard Webhooks' payloads write it. */
export const ISO_NOW = isoUtc("now()");

/** A `webhook-id`: `msg_` and 32 hex digits, unique per message. */
export const NEW_MESSAGE_ID = `'msg_' || replace(gen_random_uuid()::text, '-', '')`;

export interface QueueWebhooksOptions {
  /** The CTE's name, unique in its statement. */
  name: string;
  event: WebhookEvent;
  /** The FROM items the event's rows come from (a CTE of the statement, joins), one event per row. */
  from: string;
  /** The event's `data`: a jsonb expression over `from`'s rows. */
  data: string;
  /** A condition on `from`'s rows for the event to be queued. */
  where?: string;
}

/**
 * `name AS (INSERT INTO webhook_deliveries …)`: the event, once for every endpoint that is on and wants it, for use
 * in the WITH clause of the statement that stores what it tells of (stored and queued together, or neither). With
 * no such endpoint it inserts nothing and `data` is never built, so it costs the statement next to nothing.
 * It yields one row per delivery queued.
 */
export function queueWebhooksCte({ name, event, from, data, where }: QueueWebhooksOptions): string {
  return `${name} AS (
  INSERT INTO ${d.table} (${d.id}, ${d.endpointId}, ${d.purpose}, ${d.messageId}, ${d.payload})
  SELECT gen_random_uuid(), endpoint.${e.id}, '${event}', ${NEW_MESSAGE_ID},
    jsonb_build_object('type', '${event}', 'timestamp', ${ISO_NOW}, 'data', ${data})
  FROM ${e.table} AS endpoint, ${from}
  WHERE endpoint.${e.disabledAt} IS NULL AND '${event}' = ANY(endpoint.${e.events})${where ? ` AND (${where})` : ""}
  RETURNING 1
)`;
}
