import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * An operator's webhook endpoint: the URL events are sent to (one endpoint a URL), the events it wants, and the
 * secret deliveries are signed with (kept as it is, because signing needs it; shown when it is added, rolled, or
 * revealed to an operator who typed their password again).
 */
export const webhookEndpoints = pgTable("webhook_endpoints", {
  id: uuid("id").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  url: text("url").notNull(),
  /** The event types it is sent, such as "lead.created". */
  events: text("events").array().notNull(),
  /** `whsec_` and the base64 signing key, as Standard Webhooks writes it. */
  secret: text("secret").notNull(),
  /** The secret before the last roll: deliveries are signed with it too until `previousSecretUntil`. */
  previousSecret: text("previous_secret"),
  previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true }),
  /** Since when every attempt to it has failed; cleared by a delivery it accepts. */
  failingSince: timestamp("failing_since", { withTimezone: true }),
  /** Turned off after failing for 5 days (or never): nothing is sent to it until the operator turns it on again. */
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
});

/**
 * One event for one endpoint, queued in the same statement as what it tells of, and delivered by the outbox's lease
 * loop: its delivery columns are the outbox's (attempts, next_attempt_at as the lease, sent_at, failed_at,
 * last_error), `purpose` is the event type, and the payload is the JSON body, rendered once and sent as it is.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The event type: "lead.created", "webhook.test", … */
    purpose: text("purpose").notNull(),
    /** The `webhook-id` header: the same on every attempt and on a resend, so a receiver can skip a repeat. */
    messageId: text("message_id").notNull(),
    payload: jsonb("payload").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    lastError: text("last_error"),
    /** The last attempt: when it was made, the HTTP status it got (null: no answer), and how long it took. */
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms"),
  },
  (table) => [
    index("webhook_deliveries_pending_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.sentAt} IS NULL AND ${table.failedAt} IS NULL`),
    index("webhook_deliveries_endpoint_idx").on(table.endpointId, table.createdAt),
    // The hourly purge reads the settled deliveries by age, not every delivery of the month.
    index("webhook_deliveries_settled_created_idx")
      .on(table.createdAt)
      .where(sql`${table.sentAt} IS NOT NULL OR ${table.failedAt} IS NOT NULL`),
  ],
);

/**
 * Every attempt of a delivery, kept with it (30 days): when, the status (null: no whole answer), how long, why it
 * failed, and the first 2 KB of the answer's body. The request's body is the delivery's payload.
 */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    responseHead: text("response_head"),
  },
  (table) => [index("webhook_attempts_delivery_idx").on(table.deliveryId, table.attemptedAt)],
);
