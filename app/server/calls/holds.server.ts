import { sqlNames, type RunStatement } from "../db/index.server.ts";
import type { LeadAttribution } from "../leads/index.server.ts";
import { pruneExhaustionCounts, recordPoolExhausted } from "./pool-exhaustion.server.ts";
import { numberHolds } from "./schema.server.ts";

/** A visit keeps its tracking number this long after its last page view. */
const HOLD_MS = 30 * 60_000;

const h = sqlNames(numberHolds);

/** The attribution columns in a fixed order, with the JSON keys they are read from. */
const ATTRIBUTION = [
  ["landingPath", "landing_path"],
  ["referrerHost", "referrer_host"],
  ["utmSource", "utm_source"],
  ["utmMedium", "utm_medium"],
  ["utmCampaign", "utm_campaign"],
  ["utmTerm", "utm_term"],
  ["utmContent", "utm_content"],
  ["gclid", "gclid"],
  ["gbraid", "gbraid"],
  ["wbraid", "wbraid"],
  ["msclkid", "msclkid"],
  ["fbclid", "fbclid"],
] as const satisfies [keyof LeadAttribution & keyof typeof h, string][];

/** The hold's attribution columns, quoted, for other statements of this module. */
export const holdAttributionColumns = ATTRIBUTION.map(([key]) => h[key]);

/** A visit still holding its number keeps it: the hold is pushed back to HOLD_MS from now. */
const RENEW = `UPDATE ${h.table} SET ${h.heldUntil} = now() + $3 * interval '1 millisecond'
WHERE ${h.holdId} = $1 AND ${h.number} IN (SELECT jsonb_array_elements_text($2::jsonb))
RETURNING ${h.number} AS number, ${h.holdId} AS hold_id`;

/**
 * A visit may hold a pool number only while its client (an IPv4 address or an IPv6 /64) holds fewer than a tenth
 * of the pool and its campaign (its utm_campaign, any case) fewer than half: a few clients, or visits made up
 * under one invented campaign, cannot take the numbers real campaign visits need.
 */
function holdBounds(poolSize: number): { perClient: number; perCampaign: number } {
  return { perClient: Math.max(1, Math.ceil(poolSize / 10)), perCampaign: Math.max(1, Math.ceil(poolSize / 2)) };
}

/**
 * A new hold on a free pool number, within the bounds: the number free longest first, so a number just let go
 * rests before it is given out again. One row always: the number held (none when another visit took it in the
 * meantime, or no number is free) and whether a bound refused it.
 */
const ASSIGN = `WITH live AS (
  SELECT ${h.clientKey} AS client_key, lower(${h.utmCampaign}) AS campaign FROM ${h.table} WHERE ${h.heldUntil} > now()
),
bounds AS (
  SELECT (SELECT count(*) FROM live WHERE client_key = $5) >= $6
    OR (SELECT count(*) FROM live WHERE campaign = lower($4::jsonb ->> 'utm_campaign')) >= $7 AS over_share
),
candidate AS (
  SELECT pool.number FROM bounds, jsonb_array_elements_text($1::jsonb) AS pool(number)
  LEFT JOIN ${h.table} AS held ON held.${h.number} = pool.number
  WHERE NOT bounds.over_share AND (held.${h.number} IS NULL OR held.${h.heldUntil} <= now())
  ORDER BY held.${h.heldUntil} ASC NULLS FIRST, pool.number
  LIMIT 1
),
assigned AS (
  INSERT INTO ${h.table} (${h.number}, ${h.holdId}, ${h.heldUntil}, ${h.clientKey}, ${holdAttributionColumns.join(", ")})
  SELECT candidate.number, $2, now() + $3 * interval '1 millisecond', $5,
    ${ATTRIBUTION.map(([, key]) => `$4::jsonb ->> '${key}'`).join(", ")}
  FROM candidate
  ON CONFLICT (${h.number}) DO UPDATE SET ${h.holdId} = EXCLUDED.${h.holdId}, ${h.heldUntil} = EXCLUDED.${h.heldUntil},
    ${h.clientKey} = EXCLUDED.${h.clientKey},
    ${holdAttributionColumns.map((column) => `${column} = EXCLUDED.${column}`).join(", ")}
  WHERE ${h.table}.${h.heldUntil} <= now()
  RETURNING ${h.number} AS number, ${h.holdId} AS hold_id
)
SELECT assigned.number, assigned.hold_id, bounds.over_share FROM bounds LEFT JOIN assigned ON true`;

const RELEASE_EXPIRED = `DELETE FROM ${h.table} WHERE ${h.heldUntil} <= now()`;

export type HoldOutcome =
  { kind: "held"; holdId: string; number: string } | { kind: "over-share" } | { kind: "pool-empty" };

interface HoldRow {
  number: string;
  hold_id: string;
}

/**
 * Gives the visit a pool number, or keeps the one it holds: `holdId` is the hold the visit was given before.
 * A hold that was given to another visit meanwhile is not renewed; the visit gets a new number, when one is free
 * and its client and campaign are within their bounds. `client` is the client's keyed hash.
 */
export async function holdNumber(
  run: RunStatement,
  pool: readonly string[],
  visit: { holdId: string | null; attribution: LeadAttribution; newHoldId: string; client: string },
  holdMs = HOLD_MS,
): Promise<HoldOutcome> {
  if (visit.holdId) {
    const [renewed] = await run<HoldRow>("calls_hold_renew", RENEW, [visit.holdId, JSON.stringify(pool), holdMs]);
    if (renewed) return { kind: "held", holdId: renewed.hold_id, number: renewed.number };
  }
  const attribution = Object.fromEntries(ATTRIBUTION.map(([column, key]) => [key, visit.attribution[column]]));
  const bounds = holdBounds(pool.length);
  // Two visits may pick the same free number at once; the one that loses tries the next.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [assigned] = await run<{ number: string | null; hold_id: string | null; over_share: boolean }>(
      "calls_hold_assign",
      ASSIGN,
      [
        JSON.stringify(pool),
        visit.newHoldId,
        holdMs,
        JSON.stringify(attribution),
        visit.client,
        bounds.perClient,
        bounds.perCampaign,
      ],
    );
    if (assigned?.number && assigned.hold_id) {
      return { kind: "held", holdId: assigned.hold_id, number: assigned.number };
    }
    if (assigned?.over_share) return { kind: "over-share" };
    const [free] = await run<{ free: boolean }>(
      "calls_hold_any_free",
      `SELECT EXISTS (SELECT 1 FROM jsonb_array_elements_text($1::jsonb) AS pool(number) LEFT JOIN ${h.table} AS held
  ON held.${h.number} = pool.number WHERE held.${h.number} IS NULL OR held.${h.heldUntil} <= now()) AS free`,
      [JSON.stringify(pool)],
    );
    if (!free?.free) break;
  }
  await recordPoolExhausted(run, pool.length);
  return { kind: "pool-empty" };
}

/** Expired holds are deleted with the attribution they kept, and old counts of a used-up pool (housekeeping). */
export async function releaseExpiredHolds(run: RunStatement): Promise<void> {
  await run("calls_hold_release", RELEASE_EXPIRED, []);
  await pruneExhaustionCounts(run);
}
