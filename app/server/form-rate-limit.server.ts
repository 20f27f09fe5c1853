import { lt, sql } from "drizzle-orm";
import type { Database } from "./db.server.ts";
import { formRateLimits } from "./db-schema.server.ts";

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface FormRateLimiter {
  consume(clientKey: string): Promise<RateLimitResult>;
  /** Deletes windows that have ended; the table would otherwise keep one row per visitor forever. */
  prune(): Promise<void>;
}

/**
 * A fixed window per client, counted by one atomic upsert in the shared database, so every server
 * instance sees the same count (docs/decisions/032-form-rate-limit-in-postgres.md).
 */
export function createFormRateLimiter(db: Database, pointsPerWindow: number, windowSeconds: number): FormRateLimiter {
  const windowInterval = sql`${windowSeconds} * interval '1 second'`;
  return {
    async consume(clientKey) {
      const expired = sql`${formRateLimits.windowStartedAt} <= now() - ${windowInterval}`;
      const [row] = await db
        .insert(formRateLimits)
        .values({ key: clientKey, windowStartedAt: sql`now()`, hits: 1 })
        .onConflictDoUpdate({
          target: formRateLimits.key,
          set: {
            hits: sql`CASE WHEN ${expired} THEN 1 ELSE ${formRateLimits.hits} + 1 END`,
            windowStartedAt: sql`CASE WHEN ${expired} THEN now() ELSE ${formRateLimits.windowStartedAt} END`,
          },
        })
        .returning({
          hits: formRateLimits.hits,
          secondsLeft: sql<number>`ceil(extract(epoch FROM ${formRateLimits.windowStartedAt} + ${windowInterval} - now()))::int`,
        });
      if (!row || row.hits <= pointsPerWindow) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, row.secondsLeft) };
    },
    async prune() {
      await db.delete(formRateLimits).where(lt(formRateLimits.windowStartedAt, sql`now() - ${windowInterval}`));
    },
  };
}
