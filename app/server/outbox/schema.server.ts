import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";

/** What every queue row has: its id and purpose, and the lease and retry bookkeeping of its delivery. */
const deliveryColumns = () => ({
  id: uuid("id").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  purpose: text("purpose").notNull(),
  attempts: integer("attempts").notNull().default(0),
  /** When a worker may next pick the row up; while one is sending, this is its lease. */
  nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
  /** Given up: refused for good, or undeliverable for too long. Never tried again. */
  failedAt: timestamp("failed_at", { withTimezone: true }),
  lastError: text("last_error"),
});

/** The index the claim reads: rows still to deliver, by when they are due. */
const pendingIndex = (
  name: string,
  table: { nextAttemptAt: AnyPgColumn; sentAt: AnyPgColumn; failedAt: AnyPgColumn },
) =>
  index(name)
    .on(table.nextAttemptAt)
    .where(sql`${table.sentAt} IS NULL AND ${table.failedAt} IS NULL`);

/**
 * Emails to send, written in the same transaction as what they belong to, already rendered, so that a
 * restart or a template change never alters or loses a pending message.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    ...deliveryColumns(),
    contactRequestId: uuid("contact_request_id"),
    privacyRequestId: uuid("privacy_request_id"),
    /** Stable across retries, so a receiver can recognise a message delivered twice after a crash. */
    messageId: text("message_id").notNull().unique(),
    toAddress: text("to_address").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
  },
  (table) => [
    pendingIndex("email_outbox_pending_idx", table),
    // A lead's page lists its emails, and the retention purge deletes them with their request.
    index("email_outbox_contact_request_idx")
      .on(table.contactRequestId)
      .where(sql`${table.contactRequestId} IS NOT NULL`),
    index("email_outbox_privacy_request_idx")
      .on(table.privacyRequestId)
      .where(sql`${table.privacyRequestId} IS NOT NULL`),
    // The hourly purge of the operator's own emails reads these by age, not every lead's email.
    index("email_outbox_unowned_created_idx")
      .on(table.createdAt)
      .where(sql`${table.contactRequestId} IS NULL AND ${table.privacyRequestId} IS NULL`),
    // An email belongs to at most one request; the operator's own emails (a digest, an alert) to none.
    check("email_outbox_one_request", sql`${table.contactRequestId} IS NULL OR ${table.privacyRequestId} IS NULL`),
  ],
);

/**
 * Messages other than email (a text message, a push, a call to a provider's API), queued like emails: written
 * with what they belong to, delivered under a lease, retried with backoff, never sent twice by two instances.
 * `payload` is what the channel's sender needs, already rendered.
 */
export const outboxMessages = pgTable(
  "outbox_messages",
  {
    ...deliveryColumns(),
    /** "sms", "push", …: which sender delivers it. */
    channel: text("channel").notNull(),
    payload: jsonb("payload").notNull(),
  },
  (table) => [pendingIndex("outbox_messages_pending_idx", table)],
);
