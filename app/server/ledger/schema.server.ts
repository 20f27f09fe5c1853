import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { partners } from "../partners/schema.server.ts";

export const LEDGER_KINDS = ["charge", "credit", "payment", "adjustment"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * What each partner owes, as append-only entries in minor units of CONVERSION_CURRENCY: a charge (+) when the
 * partner accepts a referral, a credit (−) for an approved return, a payment (−) the operator records, an
 * adjustment (±, with a note). The balance is their sum; no entry is ever updated or deleted (a trigger refuses it).
 * An entry names its referral by id only, with the job's service, ZIP and date and never the customer's details,
 * so it outlives the lead's retention purge.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    amountMinor: integer("amount_minor").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
    /** The operator (email) who recorded a payment, credit or adjustment; null for a charge. */
    recordedBy: text("recorded_by"),
    /** The referral charged for, or credited back (no foreign key: the referral goes with its lead). */
    referralId: uuid("referral_id"),
    /** A charge's or credit's lead (no foreign key: the entry outlives it), for the ad platforms' "Referral accepted". */
    leadId: uuid("lead_id"),
    /** The return a credit pays back. */
    returnId: uuid("return_id"),
    /** The call charged for, or credited back (no foreign key: the call goes with the retention purge). */
    callId: uuid("call_id"),
    service: text("service"),
    zip: text("zip"),
    /** The lead's source and campaign, as the dashboard groups them ("" for none): revenue per campaign. */
    source: text("source"),
    campaign: text("campaign"),
    /** The day of the job (the acceptance), or the payment's date. */
    occurredOn: text("occurred_on"),
    /** A payment's method and reference; an adjustment's reason, for the operator only. */
    method: text("method"),
    reference: text("reference"),
    note: text("note"),
    /** An adjustment's "Note for the partner": the only note its statement prints. */
    partnerNote: text("partner_note"),
  },
  (table) => [
    index("ledger_entries_partner_idx").on(table.partnerId, table.recordedAt),
    // One charge per referral, one credit per return: a second acceptance or approval cannot charge or credit twice.
    uniqueIndex("ledger_entries_one_charge")
      .on(table.referralId)
      .where(sql`${table.kind} = 'charge'`),
    // A partner's call is charged once, whatever Twilio repeats.
    uniqueIndex("ledger_entries_one_call_charge")
      .on(table.callId)
      .where(sql`${table.kind} = 'charge'`),
    uniqueIndex("ledger_entries_one_credit")
      .on(table.returnId)
      .where(sql`${table.kind} = 'credit'`),
    check("ledger_entries_kind_known", sql`${table.kind} IN ('charge', 'credit', 'payment', 'adjustment')`),
    check(
      "ledger_entries_sign",
      sql`(${table.kind} = 'charge' AND ${table.amountMinor} > 0) OR (${table.kind} IN ('credit', 'payment') AND ${table.amountMinor} < 0) OR (${table.kind} = 'adjustment' AND ${table.amountMinor} <> 0)`,
    ),
  ],
);

/**
 * A partner's request to return an accepted lead, or to dispute a charged call, for a credit: one per referral or
 * call, open until the operator decides.
 */
export const leadReturns = pgTable(
  "lead_returns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    referralId: uuid("referral_id"),
    callId: uuid("call_id"),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id),
    reason: text("reason").notNull(),
    detail: text("detail"),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    decision: text("decision", { enum: ["approved", "denied"] }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: text("decided_by"),
    denialReason: text("denial_reason"),
  },
  (table) => [
    uniqueIndex("lead_returns_one_per_referral").on(table.referralId),
    uniqueIndex("lead_returns_one_per_call").on(table.callId),
    check("lead_returns_referral_or_call", sql`(${table.referralId} IS NULL) <> (${table.callId} IS NULL)`),
    index("lead_returns_open_idx")
      .on(table.requestedAt)
      .where(sql`${table.decision} IS NULL`),
  ],
);

/**
 * Monthly statements, frozen when issued: the CSV is stored as it was sent, so a download gives the same bytes
 * forever. One per partner and month (a unique index: several instances issue it once). Numbered in issue order.
 */
export const partnerStatements = pgTable(
  "partner_statements",
  {
    id: uuid("id").primaryKey(),
    number: integer("number").notNull().unique(),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id),
    /** The month it covers, "2026-11". */
    period: text("period").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    /** Balances are sums of entries, which may pass an integer's range: bigint, read as numbers. */
    openingMinor: bigint("opening_minor", { mode: "number" }).notNull(),
    closingMinor: bigint("closing_minor", { mode: "number" }).notNull(),
    csv: text("csv").notNull(),
  },
  (table) => [uniqueIndex("partner_statements_one_a_month").on(table.partnerId, table.period)],
);

/** The console's default fee per referral, for partners without one of their own (one row). */
export const ledgerSettings = pgTable("ledger_settings", {
  id: integer("id").primaryKey().default(1),
  defaultFeeMinor: integer("default_fee_minor").notNull().default(0),
  /** How a partner pays ("Payment instructions" on the Partners page), printed on every statement; "" for none. */
  paymentInstructions: text("payment_instructions").notNull().default(""),
});
