import { and, gt, gte, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { signInFailures } from "./schema.server.ts";

/** Failed sign-ins allowed per account, and per client address, in one window. */
const SIGN_IN_FAILURES_ALLOWED = 5;
const SIGN_IN_WINDOW_SECONDS = 15 * 60;

export interface SignInLimit {
  /** Seconds until another attempt is allowed, when the account or the address has used up its failures. */
  retryAfterSeconds(email: string, clientIp: string): Promise<number | undefined>;
  /** Counts one failure against both the account and the address, in one statement. */
  recordFailure(email: string, clientIp: string): Promise<void>;
  prune(): Promise<void>;
}

const keysFor = (email: string, clientIp: string) => [`account:${email}`, `ip:${clientIp}`];
const windowStart = sql`now() - ${SIGN_IN_WINDOW_SECONDS} * interval '1 second'`;

/**
 * A fixed window per key, started by its first failure, kept in the shared database so every server
 * instance enforces the same count.
 */
export function createSignInLimit(db: Database): SignInLimit {
  return {
    async retryAfterSeconds(email, clientIp) {
      const [blocked] = await db
        .select({
          seconds: sql<number>`ceil(extract(epoch FROM max(${signInFailures.windowStartedAt}) + ${SIGN_IN_WINDOW_SECONDS} * interval '1 second' - now()))::int`,
        })
        .from(signInFailures)
        .where(
          and(
            inArray(signInFailures.key, keysFor(email, clientIp)),
            gt(signInFailures.windowStartedAt, windowStart),
            gte(signInFailures.failures, SIGN_IN_FAILURES_ALLOWED),
          ),
        );
      return blocked?.seconds == null ? undefined : Math.max(1, Number(blocked.seconds));
    },
    async recordFailure(email, clientIp) {
      const expired = sql`${signInFailures.windowStartedAt} <= ${windowStart}`;
      await db
        .insert(signInFailures)
        .values(keysFor(email, clientIp).map((key) => ({ key, windowStartedAt: sql`now()`, failures: 1 })))
        .onConflictDoUpdate({
          target: signInFailures.key,
          set: {
            failures: sql`CASE WHEN ${expired} THEN 1 ELSE ${signInFailures.failures} + 1 END`,
            windowStartedAt: sql`CASE WHEN ${expired} THEN now() ELSE ${signInFailures.windowStartedAt} END`,
          },
        });
    },
    async prune() {
      await db.delete(signInFailures).where(lt(signInFailures.windowStartedAt, windowStart));
    },
  };
}
