import type { Env } from "~/config/env.server.ts";
import type { Backups, RestoreOutcome } from "../backups/index.server.ts";
import { openDatabase } from "../db/index.server.ts";
import { setLogLevel } from "../log.server.ts";
import type { CommandOutput } from "./command-socket.server.ts";

/**
 * `npm run backup`, `npm run restore FILE` and `npm run db -- copy-to URL`. The backups module (and the purges a
 * restore runs after it) is loaded only by a restore or a copy, which use it: `npm run backup` through the running
 * server, and every other command line, do without it.
 */
const backupsModule = () => import("../backups/index.server.ts");

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `npm run backup`: run where the database is (in the server while it holds the embedded one). */
export async function runBackupCommand(backups: Backups, output: CommandOutput): Promise<number> {
  const made = await backups.backUpNow();
  const rows = Object.values(made.header.counts).reduce((sum, count) => sum + count, 0);
  output.out(`Backed up ${rows.toLocaleString("en-US")} rows to ${made.path} (${megabytes(made.sizeBytes)}).\n`);
  if (made.problem) {
    output.err(`It did not verify: ${made.problem}\n`);
    return 1;
  }
  output.out("Verified: restored into a scratch database, every table's row count matches.\n");
  return 0;
}

/** A restore's or copy's outcome in words; an error on the way (a database out of reach, say) is one line too. */
async function report(
  outcome: Promise<RestoreOutcome>,
  output: CommandOutput,
  done: string,
  { unchanged }: { unchanged?: string } = {},
): Promise<number> {
  let settled: RestoreOutcome;
  try {
    settled = await outcome;
  } catch (error) {
    output.err(`${(error as Error).message}\n`);
    return 1;
  }
  if (settled.kind === "restored") {
    const rows = Object.values(settled.header.counts).reduce((sum, count) => sum + count, 0);
    output.out(
      `${done}: ${rows.toLocaleString("en-US")} rows in ${settled.header.tables.length} tables, every count checked.\n`,
    );
    for (const [table, count] of Object.entries(settled.leftOut)) {
      output.out(
        `${count.toLocaleString("en-US")} rows of ${table} were left out: they were deleted, or their unique value moved to another row, while the backup was made.\n`,
      );
    }
    return 0;
  }
  output.err(
    settled.kind === "mismatch" ? `The row counts do not match: ${settled.message}\n` : `${settled.message}\n`,
  );
  if (unchanged && settled.kind !== "refused") output.err(`Nothing was restored: ${unchanged} is as it was.\n`);
  return 1;
}

const RESTORE_USAGE = `Usage: npm run restore -- FILE          restore a backup into an empty database (DATABASE_URL, or PGLITE_DATA_DIR)
       npm run restore -- --verify FILE  restore it into a scratch database and check it, changing nothing
`;

export async function runRestoreCommandLine(env: Env, args: string[], output: CommandOutput): Promise<number> {
  setLogLevel(env.LOG_LEVEL);
  const verify = args[0] === "--verify";
  const file = verify ? args[1] : args[0];
  if (!file || args.length > (verify ? 2 : 1)) {
    output.err(RESTORE_USAGE);
    return 2;
  }
  const { restoreBackup, verifyBackup } = await backupsModule();
  if (verify) return report(verifyBackup(file), output, `${file} verified`);
  const target = env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDataDir: env.PGLITE_DATA_DIR };
  const where = env.DATABASE_URL ? "the PostgreSQL database" : env.PGLITE_DATA_DIR;
  const code = await report(restoreBackup(file, target), output, `Restored into ${where}`, { unchanged: where });
  if (code !== 0) return code;
  try {
    await dropExpired(env, output);
  } catch (error) {
    output.err(
      `The restore is complete, but what is past its retention period was not dropped (${(error as Error).message}): the server drops it when it starts.\n`,
    );
    return 1;
  }
  output.out("Start the server (npm start) to serve it.\n");
  return 0;
}

/**
 * What the restored backup holds past its retention period goes at once, as the server would have deleted it by
 * now: a backup may be kept some months after it was made (the database opened as the server opens it, with the
 * newer migrations applied).
 */
async function dropExpired(env: Env, output: CommandOutput): Promise<void> {
  const { retentionPurges } = await import("../retention-purges.server.ts");
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDataDir: env.PGLITE_DATA_DIR,
  });
  try {
    const dropped: string[] = [];
    for (const [what, purge] of retentionPurges(database, { outboxDir: env.OUTBOX_DIR })) {
      const rows = await purge();
      if (rows > 0) dropped.push(`${what}: ${rows.toLocaleString("en-US")}`);
    }
    if (dropped.length > 0) output.out(`Dropped, past their retention period: ${dropped.join("; ")}.\n`);
  } finally {
    await database.close();
  }
}

const DB_USAGE = "Usage: npm run db -- copy-to postgres://user:password@host:5432/database\n";

export async function runDbCommandLine(env: Env, args: string[], output: CommandOutput): Promise<number> {
  setLogLevel(env.LOG_LEVEL);
  const [command, url] = args;
  if (command !== "copy-to" || !url || !/^postgres(?:ql)?:\/\//.test(url) || args.length !== 2) {
    output.err(DB_USAGE);
    return 2;
  }
  if (env.DATABASE_URL) {
    output.err("DATABASE_URL is set: this site already uses PostgreSQL. copy-to copies the embedded database.\n");
    return 2;
  }
  const { copyToPostgres } = await backupsModule();
  const code = await report(copyToPostgres(env.PGLITE_DATA_DIR, url), output, "Copied to PostgreSQL", {
    unchanged: "the PostgreSQL database",
  });
  if (code === 0) {
    output.out("Next: set DATABASE_URL to that address in .env (keep ./data until you are sure), then npm start.\n");
  }
  return code;
}
