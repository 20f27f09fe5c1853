import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Form submissions per client in the current window, shared by every server instance. */
export const formRateLimits = pgTable("form_rate_limits", {
  key: text("key").primaryKey(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});
