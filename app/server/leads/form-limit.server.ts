import { lt, sql } from "drizzle-orm";
import type { Database } from "../db/db.server.ts";
import { formRateLimits } from "../limits/schema.server.ts";
import { sqlNames } from "../db/sql-names.server.ts";

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const limits = sqlNames(formRateLimits);

/**
 * A fixed window per client, counted by one atomic upsert in the shared database, so every server
 * instance sees the same count (docs/decisions/032-form-rate-limit-in-postgres.md).
 *
 * The upsert is a CTE named `form_hit` rather than a statement of its own, so that the lead intake counts
 * the hit and stores the lead in one round trip (docs/decisions/050-one-statement-per-lead.md). It takes
 * $1 (the client key), $2 (the window in seconds) and $3 (the hits allowed per window), and yields
 * `allowed` and `seconds_left`.
 */
export const COUNT_FORM_HIT = `form_hit AS (
  INSERT INTO ${limits.table} AS counted (${limits.key}, ${limits.windowStartedAt}, ${limits.hits}) VALUES ($1, now(), 1)
  ON CONFLICT (${limits.key}) DO UPDATE SET
    ${limits.hits} = CASE WHEN counted.${limits.windowStartedAt} <= now() - $2 * interval '1 second'
      THEN 1 ELSE counted.${limits.hits} + 1 END,
    ${limits.windowStartedAt} = CASE WHEN counted.${limits.windowStartedAt} <= now() - $2 * interval '1 second'
      THEN now() ELSE counted.${limits.windowStartedAt} END
  RETURNING ${limits.hits} <= $3 AS allowed,
    ceil(extract(epoch FROM ${limits.windowStartedAt} + $2 * interval '1 second' - now()))::int AS seconds_left
)`;

export interface FormRateLimit {
  /** The parameters $1–$3 of COUNT_FORM_HIT for one client. */
  params(clientKey: string): [key: string, windowSeconds: number, pointsPerWindow: number];
  result(hit: { allowed: boolean; seconds_left: number }): RateLimitResult;
  /** Deletes windows that have ended; the table would otherwise keep one row per visitor forever. */
  prune(): Promise<void>;
}

export function createFormRateLimit(db: Database, pointsPerWindow: number, windowSeconds: number): FormRateLimit {
  return {
    params: (clientKey) => [clientKey, windowSeconds, pointsPerWindow],
    result: (hit) =>
      hit.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, hit.seconds_left) },
    async prune() {
      await db
        .delete(formRateLimits)
        .where(lt(formRateLimits.windowStartedAt, sql`now() - ${windowSeconds} * interval '1 second'`));
    },
  };
}
