import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** People who may sign in to the console at /admin. Created with `npm run operator -- add EMAIL`. */
export const operators = pgTable("operators", {
  id: uuid("id").primaryKey(),
  /** Lower-cased, so sign-in is case-insensitive. */
  email: text("email").notNull().unique(),
  /** argon2id, in PHC string format. */
  passwordHash: text("password_hash").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** The TOTP secret (base32, RFC 6238) once two-step sign-in is on; null while it is off. */
  totpSecret: text("totp_secret"),
  /**
   * The secret shown on the account page until two-step sign-in is turned on with it: the same on every visit of
   * the session that asked for it, so an app that has scanned it keeps matching; a new one for any other session;
   * never taken from the form.
   */
  totpPendingSecret: text("totp_pending_secret"),
  /** The session (its key) the pending secret was made for: only that session may turn it on. */
  totpPendingSession: text("totp_pending_session"),
  /** The 30-second step of the last code accepted: a code is never accepted twice. */
  totpLastStep: integer("totp_last_step"),
});

/** One-time recovery codes for two-step sign-in, as SHA-256 hashes: each is deleted when used. */
export const operatorRecoveryCodes = pgTable(
  "operator_recovery_codes",
  {
    operatorId: uuid("operator_id")
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
  },
  (table) => [primaryKey({ name: "operator_recovery_codes_pk", columns: [table.operatorId, table.codeHash] })],
);

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

/**
 * Sign-in attempts (passwords and codes, counted before they are checked) per key in the current window,
 * shared by every instance: per account and client network, per client network, and per account.
 */
export const signInFailures = pgTable("sign_in_failures", {
  key: text("key").primaryKey(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  /** Attempts counted in the window; a correct one is taken back. */
  failures: integer("failures").notNull(),
  /** When the last attempt was let through: the account-wide backoff waits from it. */
  lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One-time set-up codes, as SHA-256 hashes: while no operator exists, each instance prints one in its log at start,
 * and "Create the first operator" takes the newest (used up when the operator is made, void after 24 hours).
 */
export const operatorSetupCodes = pgTable("operator_setup_codes", {
  codeHash: text("code_hash").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The first operator made on the set-up page: one row at most, so two set-ups at once make one operator. */
export const firstOperatorClaim = pgTable("first_operator_claim", {
  id: integer("id").primaryKey(),
  claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Console forms sent, by the one-time key each rendered form carries: a form sent again (a double click, a reload,
 * the back button) finds its key taken and answers with the first result instead of acting twice. `outcome` is
 * null while the first is still at work; a form that did not act (its errors shown) gives its key back.
 */
export const consoleFormSubmissions = pgTable(
  "console_form_submissions",
  {
    operatorId: uuid("operator_id")
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    formKey: text("form_key").notNull(),
    /** What the first sending did: the confirmation shown and the page it led to. */
    outcome: jsonb("outcome").$type<{ message: string; to: string }>(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: "console_form_submissions_pk", columns: [table.operatorId, table.formKey] }),
    index("console_form_submissions_sent_idx").on(table.sentAt),
  ],
);
