import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Emails to send, written in the same transaction as the request they belong to, already rendered,
 * so that a restart or a template change never alters or loses a pending message.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    contactRequestId: uuid("contact_request_id"),
    privacyRequestId: uuid("privacy_request_id"),
    purpose: text("purpose").notNull(),
    /** Stable across retries, so a receiver can recognise a message delivered twice after a crash. */
    messageId: text("message_id").notNull().unique(),
    toAddress: text("to_address").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When a worker may next pick the row up; while one is sending, this is its lease. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** Given up: refused for good by the mail server, or undeliverable for too long. Never tried again. */
    failedAt: timestamp("failed_at", { withTimezone: true }),
    lastError: text("last_error"),
  },
  (table) => [
    index("email_outbox_pending_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.sentAt} IS NULL AND ${table.failedAt} IS NULL`),
    check("email_outbox_one_request", sql`(${table.contactRequestId} IS NULL) <> (${table.privacyRequestId} IS NULL)`),
  ],
);
