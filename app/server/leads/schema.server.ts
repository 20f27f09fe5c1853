import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { LEAD_STATUSES } from "~/lib/lead-status.ts";

/**
 * How a visitor found the site (docs/decisions/070): the first page of their visit, the host it came from, its
 * campaign values and ad click ids (what an offline conversion import matches on; not kept under Global Privacy
 * Control). Null when unknown; never an identifier of the visitor themselves. Leads and calls both keep them.
 */
export const visitAttributionColumns = () => ({
  landingPath: text("landing_path"),
  referrerHost: text("referrer_host"),
  utmSource: text("utm_source"),
  utmMedium: text("utm_medium"),
  utmCampaign: text("utm_campaign"),
  utmTerm: text("utm_term"),
  utmContent: text("utm_content"),
  gclid: text("gclid"),
  gbraid: text("gbraid"),
  wbraid: text("wbraid"),
  msclkid: text("msclkid"),
  fbclid: text("fbclid"),
});

export const contactRequests = pgTable(
  "contact_requests",
  {
    id: uuid("id").primaryKey(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    service: text("service").notNull(),
    message: text("message").notNull(),
    /** The consent line the visitor saw next to the button, kept as evidence of consent to be contacted. */
    consentText: text("consent_text").notNull(),
    /** "form" (the /contact page's own POST) or "api" (the JSON endpoint). */
    channel: text("channel").notNull(),
    /**
     * The visitor's browser sent Global Privacy Control (Sec-GPC: 1): under the CCPA an opt-out of the
     * sale or sharing of their personal information, so this lead may be answered but not sold or shared.
     */
    globalPrivacyControl: boolean("global_privacy_control").notNull().default(false),
    /** Where the operator is with this request (New, Contacted, Booked, Closed, Spam); changed in the console. */
    status: text("status", { enum: LEAD_STATUSES }).notNull().default("New"),
    ...visitAttributionColumns(),
    /** The visitor's ZIP code, filled in by the operator after talking to them (partners serving it come first). */
    zip: text("zip"),
    /** When an operator first opened the lead's page. */
    openedAt: timestamp("opened_at", { withTimezone: true }),
    /** When the operator was alerted that the lead was still New and unopened (once per lead). */
    escalatedAt: timestamp("escalated_at", { withTimezone: true }),
    /** What the booked job is worth, in cents of CONVERSION_CURRENCY, set on the lead page; null: the default value. */
    jobValueCents: integer("job_value_cents"),
  },
  (table) => [
    index("contact_requests_received_at_idx").on(table.receivedAt),
    index("contact_requests_status_idx").on(table.status),
    // The calls page links each call to the newest lead with the caller's number: its last 10 digits.
    index("contact_requests_phone_key_idx").on(
      sql`right(regexp_replace(${table.phone}, '\\D', '', 'g'), 10)`,
      table.receivedAt,
    ),
    index("contact_requests_unescalated_idx")
      .on(table.receivedAt)
      .where(sql`${table.openedAt} IS NULL AND ${table.escalatedAt} IS NULL`),
    // A person's Global Privacy Control, found by their email when a referral is accepted.
    index("contact_requests_gpc_email_idx")
      .on(sql`lower(${table.email})`)
      .where(sql`${table.globalPrivacyControl}`),
    check(
      "contact_requests_status_known",
      sql`${table.status} IN (${sql.raw(LEAD_STATUSES.map((status) => `'${status}'`).join(", "))})`,
    ),
  ],
);

/**
 * Every change an operator makes to a contact request: a status change, a note, or both, with who and when.
 * Deleted with its request by the retention purge.
 */
export const leadChanges = pgTable(
  "lead_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    contactRequestId: uuid("contact_request_id")
      .notNull()
      .references(() => contactRequests.id, { onDelete: "cascade" }),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
    /** The operator's email, kept as text so the record outlives the operator's account. */
    changedBy: text("changed_by").notNull(),
    statusFrom: text("status_from", { enum: LEAD_STATUSES }),
    statusTo: text("status_to", { enum: LEAD_STATUSES }),
    note: text("note"),
  },
  (table) => [
    index("lead_changes_request_idx").on(table.contactRequestId, table.changedAt),
    // The dashboard and the conversion files read the jobs booked in a period.
    index("lead_changes_booked_idx")
      .on(table.changedAt)
      .where(sql`${table.statusTo} = 'Booked'`),
  ],
);

export const privacyRequests = pgTable(
  "privacy_requests",
  {
    id: uuid("id").primaryKey(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    /** Received + 30 days: the opt-out promise on /do-not-sell. */
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    kind: text("kind").notNull().default("opt-out"),
    name: text("name").notNull(),
    email: text("email").notNull(),
    message: text("message"),
    channel: text("channel").notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /** The operator (email) who marked the request done; empty when done from the command line. */
    completedBy: text("completed_by"),
  },
  (table) => [
    index("privacy_requests_open_due_idx")
      .on(table.dueAt)
      .where(sql`${table.completedAt} IS NULL`),
    index("privacy_requests_email_idx").on(sql`lower(${table.email})`),
  ],
);

/**
 * Submission ids (a form's or an API client's Idempotency-Key) of stored leads, so a repeat gets the first
 * answer and stores nothing. Written in the same statement as the lead; deleted once expired.
 */
export const leadSubmissions = pgTable(
  "lead_submissions",
  {
    key: text("key").primaryKey(),
    /** A hash of the lead as first submitted: the same key with another lead is refused. */
    fingerprint: text("fingerprint").notNull(),
    requestId: uuid("request_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("lead_submissions_expires_at_idx").on(table.expiresAt)],
);

/** Opt-out confirmations sent per recipient (normalised address) in the current day, shared by every instance. */
export const confirmationEmailLimits = pgTable("confirmation_email_limits", {
  recipient: text("recipient").primaryKey(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  sent: integer("sent").notNull(),
});

/**
 * Each day's version: raised, by triggers in the database, whenever a change may reach that day's lead figures (a
 * lead received that day is stored late, deleted, marked or unmarked Spam, or its attribution changes; a Booked change
 * of that day is stored late or deleted). The triggers know no time zone: they raise every date a time falls on in
 * some zone (UTC-12 to UTC+14), so the operator's day is among them whatever OPERATOR_TIME_ZONE is. The day's totals
 * are stored at the version and in the zone they were summed in, and are read only while both still hold.
 */
export const leadDayVersions = pgTable("lead_day_versions", {
  day: date("day", { mode: "string" }).primaryKey(),
  version: integer("version").notNull().default(0),
  /** The version the day's totals in lead_day_totals were summed at; null until they are. */
  summedVersion: integer("summed_version"),
  /** The zone (OPERATOR_TIME_ZONE) whose day the totals were summed for; null until they are. */
  summedTimeZone: text("summed_time_zone"),
});

/**
 * A day of the operator's calendar that is over (midnight to midnight in OPERATOR_TIME_ZONE), summed per landing page, source, medium and campaign (as the counts name them, "" for
 * none): leads received that day, those of them not marked Spam, and leads not marked Spam first set to Booked that day.
 */
export const leadDayTotals = pgTable(
  "lead_day_totals",
  {
    day: date("day", { mode: "string" }).notNull(),
    version: integer("version").notNull(),
    path: text("path").notNull(),
    source: text("source").notNull(),
    medium: text("medium").notNull(),
    campaign: text("campaign").notNull(),
    leads: integer("leads").notNull(),
    leadsNotSpam: integer("leads_not_spam").notNull(),
    booked: integer("booked").notNull(),
  },
  (table) => [
    primaryKey({
      columns: [table.day, table.version, table.path, table.source, table.medium, table.campaign],
    }),
  ],
);
