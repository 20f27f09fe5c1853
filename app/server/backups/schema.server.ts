import { bigint, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Backups made by this site, newest last: what the console shows and retention deletes. */
export const backups = pgTable("backups", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** The file's name in BACKUP_DIR (on the instance that made it). */
  file: text("file").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
  /** Every table's row count when it was made. */
  counts: jsonb("counts").$type<Record<string, number>>().notNull(),
  /** When restoring it into a scratch database found every table's count again; null until then. */
  verifiedAt: timestamp("verified_at", { withTimezone: true }),
  /** Why its verification failed, when it did. */
  verifyError: text("verify_error"),
  /** When the console last sent this file whole to an operator's browser: a copy off the machine. */
  downloadedAt: timestamp("downloaded_at", { withTimezone: true }),
});

/** The days whose scheduled backup an instance has taken on: one row a day, so exactly one instance makes it. */
export const backupDays = pgTable("backup_days", {
  day: text("day").primaryKey(),
  claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One row: since when backups are watched, and the verified backup (or "none") the operator was last warned after. */
export const backupWatch = pgTable("backup_watch", {
  id: integer("id").primaryKey(),
  watchingSince: timestamp("watching_since", { withTimezone: true }).notNull().defaultNow(),
  warnedAfter: text("warned_after"),
});
