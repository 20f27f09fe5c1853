import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { contactRequests } from "../leads/schema.server.ts";

/** Partner plumbers the operator refers jobs to. They have no accounts: each referral's link is their access. */
export const partners = pgTable(
  "partners",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    name: text("name").notNull(),
    business: text("business").notNull(),
    phone: text("phone").notNull(),
    email: text("email").notNull(),
    /** The services (as the site names them) the partner takes. */
    services: text("services").array().notNull(),
    /** The 5-digit ZIP codes the partner serves. */
    zipCodes: text("zip_codes").array().notNull(),
    /** Deactivated partners are kept, with their referrals, but offered no new jobs. */
    active: boolean("active").notNull().default(true),
    /** "Fee per referral" in minor units of CONVERSION_CURRENCY; null: the console's default fee. */
    feeMinor: integer("fee_minor"),
    /** The partner's fee for some services (by the site's service names), in place of `fee_minor` for those jobs. */
    serviceFees: jsonb("service_fees").$type<Record<string, number>>().notNull().default({}),
    /** "Send calls to this partner": the calls module may ring them. */
    takesCalls: boolean("takes_calls").notNull().default(false),
    /** "Fee per call" in minor units of CONVERSION_CURRENCY; null: the Partners page's "Default fee per call". */
    callFeeMinor: integer("call_fee_minor"),
    /** "Hours" as the operator wrote them (partner-hours.server.ts), on the operator's wall clock. */
    hours: text("hours").notNull().default("24/7"),
    /** "Calls per day": at most this many calls a day; null: no cap. */
    callsPerDay: integer("calls_per_day"),
    /** "Priority": 1 is tried first, 3 last. */
    priority: integer("priority").notNull().default(2),
    /** Paused since then: no calls and no referral offers until resumed. */
    pausedAt: timestamp("paused_at", { withTimezone: true }),
  },
  (table) => [
    // The partners serving a ZIP code, found by the code among a thousand partners' lists. Every call reads it and
    // an operator's edit seldom changes it: each edit goes straight into the index (no pending list), so the
    // planner always finds it cheaper than reading every partner's list (1 ms against 11 at 1,000 partners).
    index("partners_zip_codes_idx").using("gin", table.zipCodes).with({ fastupdate: false }),
    check("partners_priority_range", sql`${table.priority} BETWEEN 1 AND 3`),
    check("partners_calls_per_day_positive", sql`${table.callsPerDay} IS NULL OR ${table.callsPerDay} > 0`),
    check("partners_call_fee_not_negative", sql`${table.callFeeMinor} IS NULL OR ${table.callFeeMinor} >= 0`),
  ],
);

/** The Partners page's settings for routing calls and referring leads by rules (one row). */
export const partnerSettings = pgTable("partner_settings", {
  id: integer("id").primaryKey().default(1),
  /** "Route calls to partners". */
  routeCalls: boolean("route_calls").notNull().default(false),
  /** "Default fee per call" in minor units, for partners without a fee per call of their own. */
  defaultCallFeeMinor: integer("default_call_fee_minor").notNull().default(0),
  /** "Refer new leads automatically". */
  referAutomatically: boolean("refer_automatically").notNull().default(false),
});

/**
 * One job offered to one partner, with its answer. The link's token names the row and is signed; it is good
 * until `expires_at` and for one answer. Deleted with its lead by the retention purge.
 */
export const referrals = pgTable(
  "referrals",
  {
    id: uuid("id").primaryKey(),
    contactRequestId: uuid("contact_request_id")
      .notNull()
      .references(() => contactRequests.id, { onDelete: "cascade" }),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id),
    /** The operator (email) who sent it. */
    offeredBy: text("offered_by").notNull(),
    offeredAt: timestamp("offered_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    answer: text("answer", { enum: ["accepted", "declined"] }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /** When the link's expiry, unanswered, was recorded in the lead's history. */
    expiredAt: timestamp("expired_at", { withTimezone: true }),
    /** When the operator was alerted that no partner had answered in time (the first offer of a lead's batch). */
    timeoutAlertedAt: timestamp("timeout_alerted_at", { withTimezone: true }),
  },
  (table) => [
    index("referrals_lead_idx").on(table.contactRequestId),
    index("referrals_partner_idx").on(table.partnerId),
    // The offers the alert sweep waits on: not answered, not alerted, their links not yet recorded expired. An offer
    // left unanswered because another partner took the job leaves it when its link expires.
    index("referrals_awaiting_answer_idx")
      .on(table.offeredAt)
      .where(sql`${table.answeredAt} IS NULL AND ${table.timeoutAlertedAt} IS NULL AND ${table.expiredAt} IS NULL`),
    // The alert sweep, every 30 seconds, records the links that expired unanswered: it reads the open links alone,
    // not the year of answered ones (a full read held lead intake up 30-55 ms at a busy year's 100,000).
    index("referrals_open_by_expiry_idx")
      .on(table.expiresAt)
      .where(sql`${table.answer} IS NULL AND ${table.expiredAt} IS NULL`),
    // A job goes to one partner: the first acceptance wins, whatever the timing of the others.
    uniqueIndex("referrals_one_acceptance")
      .on(table.contactRequestId)
      .where(sql`${table.answer} = 'accepted'`),
    check("referrals_answer_known", sql`${table.answer} IS NULL OR ${table.answer} IN ('accepted', 'declined')`),
  ],
);

/**
 * A new lead referred by the rules ("Refer new leads automatically"): one row per lead, claimed by the statement
 * that acts on it, so each step of the rules happens once whatever the instances and restarts. Deleted with its
 * lead.
 */
export const autoReferrals = pgTable(
  "auto_referrals",
  {
    contactRequestId: uuid("contact_request_id")
      .primaryKey()
      .references(() => contactRequests.id, { onDelete: "cascade" }),
    /** The priority last offered the lead; null when the rules offered it to nobody. */
    priority: integer("priority"),
    /** When the rules last offered the lead: the next priority's turn comes REFERRAL_TIMEOUT_MINUTES after. */
    offeredAt: timestamp("offered_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the rules were done with the lead: taken, never referred, or no later priority left. */
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    // The sweep reads the leads the rules still act on, not every lead they ever referred.
    index("auto_referrals_waiting_idx")
      .on(table.offeredAt)
      .where(sql`${table.finishedAt} IS NULL`),
  ],
);
