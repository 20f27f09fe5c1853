import { visitAttributionColumns } from "../leads/schema.server.ts";
import { partners } from "../partners/schema.server.ts";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

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
 * A partner's call, charged or why not: long enough and charged, too short, the same caller again within the
 * repeat-caller days, or a fee of zero.
 */
export const CALL_BILLINGS = ["billable", "short", "repeat-caller", "no-fee"] as const;
export type CallBilling = (typeof CALL_BILLINGS)[number];

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
    /** Twilio's caller ID verification (STIR/SHAKEN `StirVerstat`, like `TN-Validation-Passed-A`), when it sent one. */
    callerVerification: text("caller_verification"),
    line: text("line", { enum: CALL_LINES }).notNull(),
    status: text("status", { enum: CALL_STATUSES }).notNull().default("ringing"),
    /** Seconds: of the conversation when answered, of the message when voicemail. */
    durationSeconds: integer("duration_seconds"),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    recordingSid: text("recording_sid").unique(),
    recordingSeconds: integer("recording_seconds"),
    ...visitAttributionColumns(),
    /** A routed call's ZIP (the caller's digits, or Twilio's FromZip) and service (its visit's landing page). */
    zip: text("zip"),
    service: text("service"),
    /** When the call was routed to partners; null for a call forwarded as before. */
    routedAt: timestamp("routed_at", { withTimezone: true }),
    /** The partner who took the call. */
    partnerId: uuid("partner_id").references(() => partners.id),
    /** Whether the partner's call was charged, or why not; null for a call no partner took. */
    billing: text("billing", { enum: CALL_BILLINGS }),
    /** What the partner was charged, in minor units of CONVERSION_CURRENCY. */
    chargeMinor: integer("charge_minor"),
  },
  (table) => [
    index("calls_started_at_idx").on(table.startedAt),
    // The repeat caller: the same caller's charged calls to a partner in the last days.
    index("calls_billed_caller_idx")
      .on(table.partnerId, table.caller, table.startedAt)
      .where(sql`${table.billing} = 'billable'`),
    // A lead's page finds the calls from its phone number by the number's last 10 digits.
    index("calls_caller_key_idx").on(sql`right(regexp_replace(${table.caller}, '\\D', '', 'g'), 10)`),
    check(
      "calls_billing_known",
      sql`${table.billing} IS NULL OR ${table.billing} IN (${sql.raw(CALL_BILLINGS.map((billing) => `'${billing}'`).join(", "))})`,
    ),
    check("calls_line_known", sql`${table.line} IN (${sql.raw(CALL_LINES.map((line) => `'${line}'`).join(", "))})`),
    check(
      "calls_status_known",
      sql`${table.status} IN (${sql.raw(CALL_STATUSES.map((status) => `'${status}'`).join(", "))})`,
    ),
  ],
);

/**
 * Where an offer of a call to a partner stands: ringing (dialled, the whisper playing), taken (the partner pressed 1
 * and is talking with the caller), ended (the taken call is over), or missed (no answer, busy, no 1 in time, or the
 * caller hung up first).
 */
export const OFFER_STATUSES = ["ringing", "taken", "ended", "missed"] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/**
 * A routed call's ring tree: one row per partner dialled, in order. The route lives here, not in a process, so any
 * instance takes the call's next step, after a restart too.
 */
export const callOffers = pgTable(
  "call_offers",
  {
    id: uuid("id").primaryKey(),
    callId: uuid("call_id")
      .notNull()
      .references(() => calls.id, { onDelete: "cascade" }),
    /** 1 for the first partner dialled, then 2, … */
    position: integer("position").notNull(),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id),
    /** The partner's business and phone as they were when dialled, for the call's route. */
    business: text("business").notNull(),
    phone: text("phone").notNull(),
    /** The partner's fee per call when dialled, in minor units. */
    feeMinor: integer("fee_minor").notNull(),
    status: text("status", { enum: OFFER_STATUSES }).notNull().default("ringing"),
    offeredAt: timestamp("offered_at", { withTimezone: true }).notNull().defaultNow(),
    /** The partner picked up and heard the whisper. */
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /** The partner pressed 1. */
    takenAt: timestamp("taken_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /** Seconds the partner talked with the caller, from pressing 1. */
    talkSeconds: integer("talk_seconds"),
    /** Why a missed offer was missed, in words for the Calls page ("No answer", "Did not press 1"). */
    missedBecause: text("missed_because"),
  },
  (table) => [
    // A step Twilio repeats, or two instances taking it, dial one partner for each place in the tree.
    uniqueIndex("call_offers_one_per_position").on(table.callId, table.position),
    // A partner is on one call at a time: two calls at once never ring the same partner.
    uniqueIndex("call_offers_one_call_per_partner")
      .on(table.partnerId)
      .where(sql`${table.status} IN ('ringing', 'taken')`),
    // The round robin (the partner offered a call longest ago) and the calls a partner took today.
    index("call_offers_partner_idx").on(table.partnerId, table.offeredAt),
    check(
      "call_offers_status_known",
      sql`${table.status} IN (${sql.raw(OFFER_STATUSES.map((status) => `'${status}'`).join(", "))})`,
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
