import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { operators } from "../console/schema.server.ts";

/**
 * The devices operators turned alerts on for (Web Push subscriptions): where the browser's push service takes
 * messages for it, and the keys its messages are encrypted with. Removed by the operator, or when the push
 * service says the subscription is gone (404 or 410).
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The operator who turned alerts on; removing their account removes their devices, so alerts stop. */
    operatorId: uuid("operator_id")
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    /** The subscription's P-256 public key and auth secret (base64url), from PushSubscription.toJSON(). */
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** A name for the device the operator recognises in the list, from its browser ("Chrome on Android"). */
    deviceLabel: text("device_label").notNull(),
  },
  (table) => [index("push_subscriptions_operator_idx").on(table.operatorId)],
);
