import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { LEAD_STATUSES } from "../lib/lead-status.ts";

/** The one schema for PGlite and PostgreSQL. Change it, then `npm run db:generate` to add a migration. */

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
    // How the visitor found the site (docs/decisions/070): the first page of their visit, the host it came from,
    // its campaign values and ad click ids. Null when unknown. Never an identifier of the visitor themselves.
    landingPath: text("landing_path"),
    referrerHost: text("referrer_host"),
    utmSource: text("utm_source"),
    utmMedium: text("utm_medium"),
    utmCampaign: text("utm_campaign"),
    utmTerm: text("utm_term"),
    utmContent: text("utm_content"),
    /** Google Ads click ids: what an offline conversion import matches on. Not kept under Global Privacy Control. */
    gclid: text("gclid"),
    gbraid: text("gbraid"),
    wbraid: text("wbraid"),
    msclkid: text("msclkid"),
    fbclid: text("fbclid"),
  },
  (table) => [
    index("contact_requests_received_at_idx").on(table.receivedAt),
    index("contact_requests_status_idx").on(table.status),
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
  (table) => [index("lead_changes_request_idx").on(table.contactRequestId, table.changedAt)],
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
  ],
);

/**
 * Emails to send, written in the same transaction as the request they belong to, already rendered,
 * so that a restart or a template change never alters or loses a pending message.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    contactRequestId: uuid("contact_request_id").references(() => contactRequests.id),
    privacyRequestId: uuid("privacy_request_id").references(() => privacyRequests.id),
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

/** Form submissions per client in the current window, shared by every server instance. */
export const formRateLimits = pgTable("form_rate_limits", {
  key: text("key").primaryKey(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});

/** People who may sign in to the console at /admin. Created with `npm run operator -- add EMAIL`. */
export const operators = pgTable("operators", {
  id: uuid("id").primaryKey(),
  /** Lower-cased, so sign-in is case-insensitive. */
  email: text("email").notNull().unique(),
  /** argon2id, in PHC string format. */
  passwordHash: text("password_hash").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Signed-in console sessions, so that one can be ended on the server. The row holds only an HMAC of the
 * session id in the cookie: a copy of the database does not let anyone sign in.
 */
export const operatorSessions = pgTable(
  "operator_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    operatorId: uuid("operator_id")
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("operator_sessions_operator_idx").on(table.operatorId)],
);

/** Failed sign-ins per account and per client address in the current window, shared by every instance. */
export const signInFailures = pgTable("sign_in_failures", {
  key: text("key").primaryKey(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  failures: integer("failures").notNull(),
});

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
 * Page views and call clicks per UTC day, page, placement and the visit's source, medium and campaign: a number,
 * never a visitor (docs/decisions/070). An empty string means "none", so the key stays unique. The key leads with
 * the day, which is how the dashboard reads it.
 */
export const siteEventCounts = pgTable(
  "site_event_counts",
  {
    day: date("day", { mode: "string" }).notNull(),
    path: text("path").notNull(),
    /** "view" or "call". */
    kind: text("kind").notNull(),
    /** The call link's placement label; empty for views. */
    placement: text("placement").notNull().default(""),
    source: text("source").notNull().default(""),
    medium: text("medium").notNull().default(""),
    campaign: text("campaign").notNull().default(""),
    count: integer("count").notNull(),
  },
  (table) => [
    primaryKey({
      name: "site_event_counts_pk",
      columns: [table.day, table.path, table.kind, table.placement, table.source, table.medium, table.campaign],
    }),
  ],
);
