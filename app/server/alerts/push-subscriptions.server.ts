import { createPublicKey } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../db/index.server.ts";
import { checkOutboundUrl, type OutboundRule } from "../egress/index.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import { pushSubscriptions } from "./schema.server.ts";

/** The devices an operator turned alerts on for: adding one (from the browser's PushSubscription), listing, removing. */

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
    .refine((value) => Buffer.from(value, "base64url").length === bytes);

/**
 * A browser's public key for its push messages: an uncompressed P-256 point (0x04, then x and y), on the curve, or
 * no message could ever be encrypted for the device.
 */
export function isP256PublicKey(value: string): boolean {
  const bytes = Buffer.from(value, "base64url");
  if (bytes[0] !== 4) return false;
  const coordinate = (from: number) => bytes.subarray(from, from + 32).toString("base64url");
  try {
    createPublicKey({ key: { kty: "EC", crv: "P-256", x: coordinate(1), y: coordinate(33) }, format: "jwk" });
    return true;
  } catch {
    return false;
  }
}

const subscriptionSchema = z.object({
  // A push service is reached over HTTPS on a public address (checked when it is saved, and at every send).
  endpoint: z.url({ protocol: /^https?$/ }).max(2_048),
  keys: z.object({ p256dh: base64url(65).refine(isP256PublicKey), auth: base64url(16) }),
  deviceLabel: z.string().trim().min(1).max(80),
});

export type NewPushSubscription = z.infer<typeof subscriptionSchema>;

/** The subscription a browser sent (PushSubscription.toJSON() and a device name), or null when it is not one. */
export function parsePushSubscription(body: unknown): NewPushSubscription | null {
  const parsed = subscriptionSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/**
 * Adds the device, or moves it to this operator when it was subscribed before (one row per endpoint). An endpoint
 * the server may not call (not https, or not on a public address) is refused, and nothing is stored.
 */
export async function savePushSubscription(
  db: Database,
  operatorId: string,
  subscription: NewPushSubscription,
  rule: OutboundRule,
): Promise<{ saved: true } | { saved: false; reason: string }> {
  const checked = await checkOutboundUrl(subscription.endpoint, rule);
  if (!checked.ok) return { saved: false, reason: checked.reason };
  const values = {
    operatorId,
    endpoint: subscription.endpoint,
    p256dh: subscription.keys.p256dh,
    auth: subscription.keys.auth,
    deviceLabel: subscription.deviceLabel,
  };
  await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values });
  return { saved: true };
}

export async function listPushSubscriptions(db: Database, operatorId: string) {
  return db
    .select({
      id: pushSubscriptions.id,
      deviceLabel: pushSubscriptions.deviceLabel,
      createdAt: pushSubscriptions.createdAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.operatorId, operatorId))
    .orderBy(asc(pushSubscriptions.createdAt));
}

/** "Remove": only the operator's own device; returns its name, or null when they have none with that id. */
export async function removePushSubscription(db: Database, operatorId: string, id: string): Promise<string | null> {
  if (!isRowId(id)) return null;
  const [removed] = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.operatorId, operatorId)))
    .returning({ deviceLabel: pushSubscriptions.deviceLabel });
  return removed?.deviceLabel ?? null;
}
