import { sql } from "drizzle-orm";
import { bigint, boolean, check, date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * Page views, call clicks and form starts per day of the operator's calendar (OPERATOR_TIME_ZONE), page, placement and the visit's source, medium and campaign: a number,
 * never a visitor (docs/decisions/070). An empty string means "none", so the key stays unique. The key leads with
 * the day, which is how the dashboard reads it.
 */
export const siteEventCounts = pgTable(
  "site_event_counts",
  {
    day: date("day", { mode: "string" }).notNull(),
    path: text("path").notNull(),
    /** "view", "call" or "form" (a form start). */
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

/**
 * One row: raised by the database's triggers whenever a statement adds to, changes or deletes the counts of a day
 * before the current one in `time_zone` (a write held back by a database outage, the write just after midnight, the
 * retention purge). The dashboard keeps the sums of the days that are over while this stays the same.
 */
export const siteEventCountsVersion = pgTable(
  "site_event_counts_version",
  {
    one: boolean("one").primaryKey().default(true),
    version: bigint("version", { mode: "number" }).notNull().default(0),
    /** The zone whose days the counters write (OPERATOR_TIME_ZONE), set by each write; what "current day" means. */
    timeZone: text("time_zone").notNull().default("UTC"),
  },
  (table) => [check("site_event_counts_version_one_row", sql`${table.one}`)],
);
