import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Which way a text went: from the customer, or to them. */
export const TEXT_DIRECTIONS = ["in", "out"] as const;
/**
 * Where a text stands: received (from the customer); queued (in the outbox), sent (Twilio took it), delivered
 * (the carrier says it arrived) or failed (refused, undelivered, or given up on).
 */
export const TEXT_STATUSES = ["received", "queued", "sent", "delivered", "failed"] as const;
export type TextStatus = (typeof TEXT_STATUSES)[number];

const known = (column: string, values: readonly string[]) =>
  sql`${sql.raw(column)} IN (${sql.raw(values.map((value) => `'${value}'`).join(", "))})`;

/**
 * Every text to and from customers, one thread per customer's number. An outgoing text is its own queue row,
 * delivered by the outbox's lease loop: its delivery columns are the outbox's, and `purpose` says what it is
 * (operator_text, missed_call_text_back, help_reply; customer_text for one received). Purged with calls and leads.
 */
export const textMessages = pgTable(
  "text_messages",
  {
    id: uuid("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The customer's number, E.164. */
    customer: text("customer").notNull(),
    /** Our number on the text: the one the customer texted or called, or TWILIO_FROM_NUMBER. */
    ours: text("ours").notNull(),
    direction: text("direction", { enum: TEXT_DIRECTIONS }).notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: TEXT_STATUSES }).notNull(),
    /** Twilio's MessageSid: a received text is stored once however often Twilio posts it. */
    twilioSid: text("twilio_sid").unique(),
    /** A received text stays unread until an operator opens its thread. */
    readAt: timestamp("read_at", { withTimezone: true }),
    purpose: text("purpose").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When the outbox may send it: now, or 08:00 when an automatic text falls in quiet hours; then its lease. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    lastError: text("last_error"),
  },
  (table) => [
    index("text_messages_customer_idx").on(table.customer, table.createdAt),
    index("text_messages_created_at_idx").on(table.createdAt),
    // A lead's texts are found by its phone number's last 10 digits, as its calls are.
    index("text_messages_customer_key_idx").on(sql`right(regexp_replace(${table.customer}, '\\D', '', 'g'), 10)`),
    index("text_messages_pending_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.sentAt} IS NULL AND ${table.failedAt} IS NULL`),
    index("text_messages_unread_idx")
      .on(table.customer)
      .where(sql`${table.direction} = 'in' AND ${table.readAt} IS NULL`),
    check("text_messages_direction_known", known("direction", TEXT_DIRECTIONS)),
    check("text_messages_status_known", known("status", TEXT_STATUSES)),
  ],
);

/** Numbers that replied STOP (or another opt-out word): no text of any kind goes to them until START. */
export const textOptOuts = pgTable("text_opt_outs", {
  number: text("number").primaryKey(),
  optedOutAt: timestamp("opted_out_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The last missed-call text-back to each number: at most one per number per 24 hours. */
export const textBacks = pgTable("text_backs", {
  number: text("number").primaryKey(),
  queuedAt: timestamp("queued_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Each hour in which the text-backs' hourly cap was reached: the operator is alerted once for it. */
export const textBackCapAlerts = pgTable("text_back_cap_alerts", {
  hour: timestamp("hour", { withTimezone: true }).primaryKey(),
});

/** The operator's text-back message (one row; the default until it is saved). */
export const textSettings = pgTable(
  "text_settings",
  {
    id: smallint("id").primaryKey().default(1),
    textBackMessage: text("text_back_message").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("text_settings_one_row", sql`${table.id} = 1`)],
);
