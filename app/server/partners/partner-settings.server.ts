import { eq } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
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
}
