import { sql } from "drizzle-orm";
import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** The read API's scopes: what a key may read. */
export const API_SCOPES = ["leads:read", "calls:read", "partners:read", "ledger:read"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/**
 * Keys to the read API, created and revoked in the console. Only a SHA-256 of each key is kept (a key is 32 random
 * bytes, so a fast hash is as safe as a slow one); the key itself is shown once, when it is made.
 */
export const apiKeys = pgTable("api_keys", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  keyHash: text("key_hash").notNull().unique(),
  scopes: text("scopes")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  createdBy: text("created_by").notNull(),
  /** Written at most once a minute per key. */
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});
