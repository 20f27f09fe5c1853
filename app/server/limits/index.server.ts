/** Fixed-window limits per client, counted in the shared database. */
export {
  countHitCte,
  createPostRateLimit,
  limitResult,
  pruneEndedWindows,
  type RateLimitResult,
} from "./window-limit.server.ts";
export { clientKey } from "./client-key.server.ts";
