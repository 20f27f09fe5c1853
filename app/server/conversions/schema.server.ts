import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The conversion actions sent back to the ad platforms, as the operator set them. No row: the action's defaults
 * (its usual name, no value, switched on).
 */
export const conversionActions = pgTable("conversion_actions", {
  /** "lead", "booked" or "call". */
  action: text("action").primaryKey(),
  /** Must match the conversion action's name in the ad platform. */
  name: text("name").notNull(),
  /** In cents of CONVERSION_CURRENCY. */
  defaultValueCents: integer("default_value_cents").notNull(),
  enabled: boolean("enabled").notNull(),
});

/** Every conversions file the operator downloaded, with its exact contents, so it can be fetched again. */
export const conversionDownloads = pgTable(
  "conversion_downloads",
  {
    id: uuid("id").primaryKey(),
    /** "google" or "microsoft". */
    platform: text("platform").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    rowCount: integer("row_count").notNull(),
    body: text("body").notNull(),
  },
  (table) => [index("conversion_downloads_platform_idx").on(table.platform, table.createdAt)],
);

/**
 * Which conversions a platform's downloads already held (e.g. "booked:<lead id>"): the key makes a second download
 * of the same conversion fail, so each download holds only what no earlier one held.
 */
export const downloadedConversions = pgTable(
  "downloaded_conversions",
  {
    platform: text("platform").notNull(),
    conversion: text("conversion").notNull(),
    downloadId: uuid("download_id")
      .notNull()
      .references(() => conversionDownloads.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ name: "downloaded_conversions_pk", columns: [table.platform, table.conversion] }),
    // A download's keys, read by the platform's next downloads.
    index("downloaded_conversions_download_idx").on(table.downloadId, table.conversion),
  ],
);

/** Ad spend per month, source and campaign ("" for the whole source), in cents of CONVERSION_CURRENCY. */
export const adSpend = pgTable(
  "ad_spend",
  {
    /** The month's first day. */
    month: date("month", { mode: "string" }).notNull(),
    source: text("source").notNull(),
    campaign: text("campaign").notNull().default(""),
    amountCents: integer("amount_cents").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: "ad_spend_pk", columns: [table.month, table.source, table.campaign] }),
    check("ad_spend_amount_not_negative", sql`${table.amountCents} >= 0`),
  ],
);

/** The weekly digests sent, one row per week (its Monday): the claim that makes exactly one instance send it. */
export const weeklyDigests = pgTable("weekly_digests", {
  weekStart: date("week_start", { mode: "string" }).primaryKey(),
  sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The username and password an ad platform's scheduler fetches its conversions file with (one pair per platform):
 * the password is shown once, when made or rolled, and only its SHA-256 is kept (it is 32 random bytes, so a hash
 * without a work factor is as strong as the password).
 */
export const scheduledFetches = pgTable("scheduled_fetches", {
  platform: text("platform").primaryKey(),
  username: text("username").notNull(),
  passwordHash: text("password_hash").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  rolledAt: timestamp("rolled_at", { withTimezone: true }).notNull().defaultNow(),
});
