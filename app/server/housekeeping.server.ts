import type { Env } from "~/config/env.server.ts";
import { releaseExpiredHolds } from "./calls/index.server.ts";
import type { ConsoleAuth, ConsoleForms } from "./console/index.server.ts";
import { analyzeChangedTables, vacuumChangedTables, type Database, type RunStatement } from "./db/index.server.ts";
import { sumRecentDays } from "./leads/index.server.ts";
import { pruneEndedWindows } from "./limits/index.server.ts";
import { log } from "./log.server.ts";
import { retentionPurges } from "./retention-purges.server.ts";
import { purgeOldDeliveries } from "./webhooks/index.server.ts";

const HOUR_MS = 3_600_000;

/**
 * Housekeeping at start (a server restarted more often than hourly must purge too) and hourly after: expired
 * rate-limit windows and sessions, leads past the privacy policy's retention period with their emails, and daily
 * counts past theirs; and the leads' daily totals of the days that are over, so that no dashboard view waits for
 * them. It runs beside the requests, not before them, and one task after another: on the embedded database a request
 * waits behind every statement queued before it, so it meets at most one of housekeeping's, not one of each task's.
 * A task that fails is logged and the next one still runs; once stopping, no task starts (each one's work is left
 * whole for the next start), and stop() waits for the one running.
 */
export function startHousekeeping(
  env: Env,
  database: { db: Database; run: RunStatement },
  { consoleAuth, consoleForms }: { consoleAuth: ConsoleAuth; consoleForms: ConsoleForms },
) {
  const { db, run } = database;
  const tasks: [string, () => Promise<unknown>][] = [
    ["rate limit pruning", () => pruneEndedWindows(db, HOUR_MS / 1000)],
    ...retentionPurges(database, { outboxDir: env.OUTBOX_DIR, pausing: Boolean(env.DATABASE_URL) }).map(
      ([what, purge]): [string, () => Promise<unknown>] => [`retention purge of ${what}`, purge],
    ),
    ["summing the leads' days", () => sumRecentDays(db, env.OPERATOR_TIME_ZONE)],
    ["tracking number release", () => releaseExpiredHolds(run)],
    ["session pruning", () => consoleAuth.prune()],
    ["console form key pruning", () => consoleForms.prune()],
    ["webhook delivery purge", () => purgeOldDeliveries(run)],
  ];
  // The embedded database runs no autovacuum to reuse the space of deleted rows and keep its planner statistics up
  // to date: housekeeping does, after the purges have changed the tables. PostgreSQL's autovacuum does it on its own.
  if (!env.DATABASE_URL) {
    tasks.push(
      [
        "vacuum",
        async () => {
          const vacuumed = await vacuumChangedTables(run);
          if (vacuumed.length > 0) log.info(`vacuumed ${vacuumed.join(", ")}`);
        },
      ],
      [
        "planner statistics",
        async () => {
          const analyzed = await analyzeChangedTables(run);
          if (analyzed.length > 0) log.info(`planner statistics made for ${analyzed.join(", ")}`);
        },
      ],
    );
  }
  let stopping = false;
  const housekeeping = async () => {
    for (const [name, task] of tasks) {
      if (stopping) return;
      await task().catch((error) => log.error({ err: error }, `${name} failed`));
    }
  };
  let running = housekeeping();
  const timer = setInterval(() => (running = housekeeping()), HOUR_MS);
  timer.unref();
  return {
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running;
    },
  };
}
