import { eq } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { parseAmount } from "../ledger/index.server.ts";
import { partnerSettings } from "./schema.server.ts";

/** The Partners page's settings for routing calls to partners and referring new leads by the same rules. */

export interface RoutingSettings {
  /** "Route calls to partners" (off until the operator turns it on). */
  routeCalls: boolean;
  /** "Default fee per call" in minor units of CONVERSION_CURRENCY, for partners without a fee per call (0 until set). */
  defaultCallFeeMinor: number;
  /** "Refer new leads automatically" (off until the operator turns it on). */
  referAutomatically: boolean;
}

const DEFAULTS: RoutingSettings = { routeCalls: false, defaultCallFeeMinor: 0, referAutomatically: false };

export async function routingSettings(db: Database): Promise<RoutingSettings> {
  const [row] = await db
    .select({
      routeCalls: partnerSettings.routeCalls,
      defaultCallFeeMinor: partnerSettings.defaultCallFeeMinor,
      referAutomatically: partnerSettings.referAutomatically,
    })
    .from(partnerSettings)
    .where(eq(partnerSettings.id, 1));
  return row ?? DEFAULTS;
}

export async function saveRoutingSettings(db: Database, settings: RoutingSettings): Promise<void> {
  await db
    .insert(partnerSettings)
    .values({ id: 1, ...settings })
    .onConflictDoUpdate({ target: partnerSettings.id, set: settings });
  routeCallsKnown.delete(db);
  savesSinceStart++;
}

/**
 * How long an instance answers calls with the "Route calls to partners" it last read: a change saved on this
 * instance counts from its next call, one saved on another instance (PostgreSQL) from at most this long after.
 */
const ROUTE_CALLS_KEPT_MS = 5_000;
const routeCallsKnown = new WeakMap<Database, { routeCalls: boolean; readAt: number }>();
let savesSinceStart = 0;

/** "Route calls to partners", as each call asks it: read at most every few seconds, not by every call. */
export async function routeCallsOn(db: Database): Promise<boolean> {
  const known = routeCallsKnown.get(db);
  if (known && performance.now() - known.readAt < ROUTE_CALLS_KEPT_MS) return known.routeCalls;
  const savesBefore = savesSinceStart;
  const readAt = performance.now();
  const { routeCalls } = await routingSettings(db);
  // A save while it was read may have changed it: kept only when none did.
  if (savesSinceStart === savesBefore) routeCallsKnown.set(db, { routeCalls, readAt });
  return routeCalls;
}

/** The Partners page's "Save routing": the two switches, and the default fee per call (0 charges nothing). */
export function validateRoutingForm(
  form: FormData,
  currency: string,
): { ok: true; settings: RoutingSettings } | { ok: false; error: string } {
  const feeText = form.get("defaultCallFee");
  const text = typeof feeText === "string" ? feeText.trim() : "";
  const fee = text === "0" ? { ok: true as const, minor: 0 } : parseAmount(text, currency);
  if (!fee.ok) return { ok: false, error: fee.error };
  return {
    ok: true,
    settings: {
      routeCalls: form.get("routeCalls") === "on",
      defaultCallFeeMinor: fee.minor,
      referAutomatically: form.get("referAutomatically") === "on",
    },
  };
}
