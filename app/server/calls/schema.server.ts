import { visitAttributionColumns } from "../leads/schema.server.ts";
import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** What a call came in on: the site's own number, a tracking number from the pool, or another number. */
export const CALL_LINES = ["website", "pool", "other"] as const;
export type CallLine = (typeof CALL_LINES)[number];

/**
 * Where a call stands: ringing until the forwarded call ends, then answered or one of the ways it was missed,
 * and voicemail once a missed caller left a message.
 */
export const CALL_STATUSES = ["ringing", "answered", "busy", "no-answer", "failed", "canceled", "voicemail"] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/**
 * Every call to the site's numbers, one row per Twilio CallSid, with the attribution of the visit that held
 * the number it called (copied at the call: the hold ends, the call keeps its source). Purged with the leads.
 */
export const calls = pgTable(
  "calls",
  {
    id: uuid("id").primaryKey(),
    callSid: text("call_sid").notNull().unique(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    /** The caller's number as Twilio gives it (E.164, or a word such as "Anonymous"). */
    caller: text("caller").notNull(),
    /** The number the caller dialled. */
    called: text("called").notNull(),
    line: text("line", { enum: CALL_LINES }).notNull(),
    status: text("status", { enum: CALL_STATUSES }).notNull().default("ringing"),
    /** Seconds: of the conversation when answered, of the message when voicemail. */
    durationSeconds: integer("duration_seconds"),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    recordingSid: text("recording_sid").unique(),
    recordingSeconds: integer("recording_seconds"),
    ...visitAttributionColumns(),
  },
  (table) => [
    index("calls_started_at_idx").on(table.startedAt),
    // A lead's page finds the calls from its phone number by the number's last 10 digits.
    index("calls_caller_key_idx").on(sql`right(regexp_replace(${table.caller}, '\\D', '', 'g'), 10)`),
    check("calls_line_known", sql`${table.line} IN (${sql.raw(CALL_LINES.map((line) => `'${line}'`).join(", "))})`),
    check(
      "calls_status_known",
      sql`${table.status} IN (${sql.raw(CALL_STATUSES.map((status) => `'${status}'`).join(", "))})`,
    ),
  ],
);

/**
 * Pool numbers held for a visit: one row per number, held until `heldUntil` (30 minutes after the visit's last
 * page view), with that visit's attribution and nothing else. The visit knows its hold by `holdId`, kept in its
 * sessionStorage; there is no cookie or user agent, and the client's address only as a keyed hash, deleted with
 * the hold. An expired row is free to be held again.
 */
export const numberHolds = pgTable(
  "number_holds",
  {
    number: text("number").primaryKey(),
    holdId: uuid("hold_id").notNull().unique(),
    heldUntil: timestamp("held_until", { withTimezone: true }).notNull(),
    /** Which client (IPv4 address or IPv6 /64) holds it, as a keyed hash: it bounds one client's share of the pool. */
    clientKey: text("client_key"),
    ...visitAttributionColumns(),
  },
  (table) => [index("number_holds_held_until_idx").on(table.heldUntil)],
);

/**
 * Campaign visits that found every tracking number held, counted per hour: they were shown the site's own number
 * and their calls cannot be told apart. The Calls page shows the last day's; kept 30 days.
 */
export const numberPoolExhaustions = pgTable("number_pool_exhaustions", {
  hour: timestamp("hour", { withTimezone: true }).primaryKey(),
  visits: integer("visits").notNull(),
  lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
});

/**
 * One number, raised by the database's triggers on `calls` whenever a statement inserts, updates or deletes a call
 * that started on a UTC day before the current one (a call's outcome that arrives after midnight, the retention
 * purge, an operator's SQL). The dashboard keeps the counts of the calls of the days that are over while it stays
 * the same.
 */
export const callCountsVersion = pgTable(
  "call_counts_version",
  {
    one: boolean("one").primaryKey().default(true),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  (table) => [check("call_counts_version_one_row", sql`${table.one}`)],
);
