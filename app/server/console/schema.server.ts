import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

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
