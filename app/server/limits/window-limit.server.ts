import { lt, sql } from "drizzle-orm";
import { type Database, type RunStatement, sqlNames } from "../db/index.server.ts";
import { formRateLimits } from "./schema.server.ts";

/**
 * Fixed-window limits per client, counted by one atomic upsert in the shared database, so every server
 * instance sees the same count (docs/decisions/032-form-rate-limit-in-postgres.md): the lead forms' hourly
 * limit and the per-minute limit on every POST.
 */

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const limits = sqlNames(formRateLimits);

/** The parameters (such as "$1") a counted hit reads: the client's key, the window in seconds, the hits allowed. */
export interface HitParams {
  key: string;
  windowSeconds: string;
  allowed: string;
}

/**
 * `form_hit AS (…)`: counts one hit for a key, yielding `allowed` and `seconds_left`. A CTE rather than a
 * statement of its own, so that the lead store counts the hit and stores the lead in one round trip
 * (docs/decisions/050-one-statement-per-lead.md).
 */
export function countHitCte(p: HitParams): string {
  const windowEnded = `counted.${limits.windowStartedAt} <= now() - ${p.windowSeconds} * interval '1 second'`;
  return `form_hit AS (
  INSERT INTO ${limits.table} AS counted (${limits.key}, ${limits.windowStartedAt}, ${limits.hits}) VALUES (${p.key}, now(), 1)
  ON CONFLICT (${limits.key}) DO UPDATE SET
    ${limits.hits} = CASE WHEN ${windowEnded} THEN 1 ELSE counted.${limits.hits} + 1 END,
    ${limits.windowStartedAt} = CASE WHEN ${windowEnded} THEN now() ELSE counted.${limits.windowStartedAt} END
  RETURNING ${limits.hits} <= ${p.allowed} AS allowed,
    ceil(extract(epoch FROM ${limits.windowStartedAt} + ${p.windowSeconds} * interval '1 second' - now()))::int AS seconds_left
)`;
}

/** What a counted hit means for the client. */
export function limitResult(hit: { allowed: boolean; seconds_left: number }): RateLimitResult {
  return hit.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, hit.seconds_left) };
}

/** Deletes windows that ended `longestWindowSeconds` ago or more; the table would otherwise keep a row per visitor. */
export async function pruneEndedWindows(db: Database, longestWindowSeconds: number): Promise<void> {
  await db
    .delete(formRateLimits)
    .where(lt(formRateLimits.windowStartedAt, sql`now() - ${longestWindowSeconds} * interval '1 second'`));
}

const POST_WINDOW_SECONDS = 60;
const COUNT_POST = `WITH ${countHitCte({ key: "$1", windowSeconds: "$2", allowed: "$3" })}
SELECT allowed, seconds_left FROM form_hit`;

/**
 * The per-minute limit on unsafe requests (POSTs) per client: one round trip, shared by every instance.
 * Its rows share the form limit's table under a "post:" key, and its pruning.
 */
export function createPostRateLimit(run: RunStatement, pointsPerMinute: number) {
  return async (clientKey: string): Promise<RateLimitResult> => {
    const [hit] = await run<{ allowed: boolean; seconds_left: number }>("count_post", COUNT_POST, [
      `post:${clientKey}`,
      POST_WINDOW_SECONDS,
      pointsPerMinute,
    ]);
    return limitResult(hit!);
  };
}
