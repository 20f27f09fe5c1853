import type { RunStatement } from "../db/db.server.ts";
import { COUNT_FORM_HIT, type RateLimitResult } from "../leads/form-limit.server.ts";

const WINDOW_SECONDS = 60;

// The form limit's counter, as a statement of its own: one round trip, shared by every instance.
// Its rows share the form limit's table under a "post:" key, and its hourly pruning.
const COUNT_POST = `WITH ${COUNT_FORM_HIT} SELECT allowed, seconds_left FROM form_hit`;

/** The per-minute limit on unsafe requests (POSTs) per client, counted in the shared database. */
export function createPostRateLimit(run: RunStatement, pointsPerMinute: number) {
  return async (clientKey: string): Promise<RateLimitResult> => {
    const [hit] = await run<{ allowed: boolean; seconds_left: number }>("count_post", COUNT_POST, [
      `post:${clientKey}`,
      WINDOW_SECONDS,
      pointsPerMinute,
    ]);
    return hit!.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, hit!.seconds_left) };
  };
}
