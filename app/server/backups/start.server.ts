import type { Env } from "~/config/env.server.ts";
import type { Database, RunStatement } from "../db/index.server.ts";
import { log } from "../log.server.ts";
import { backupSettings, createBackups } from "./backups.server.ts";

/**
 * Backups of the whole database: `npm run backup` through the command socket, and the daily one at BACKUP_TIME
 * (unless BACKUP_SCHEDULE is off). stop() ends the schedule and waits for a backup in progress.
 */
export function startBackups(env: Env, database: { db: Database; run: RunStatement }) {
  const backups = createBackups({
    db: database.db,
    run: database.run,
    databaseUrl: env.DATABASE_URL,
    settings: backupSettings(env),
  });
  const stop = backups.start((error) => log.error({ err: error }, "the daily backup failed"));
  return { backups, stop };
}
