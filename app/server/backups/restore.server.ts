import { mkdir, mkdtemp, readdir, rename, rm, rmdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { embeddedDatabaseOwner, makeDataPrivate, openDatabase } from "../db/index.server.ts";
import { DamagedBackup, readBackupFile, type BackupHeader } from "./backup-file.server.ts";
import { makeBackup } from "./backup.server.ts";
import type { DatabaseFacts } from "./database-facts.server.ts";
import {
  connectPostgres,
  factsOf,
  isEmpty,
  migrateTo,
  openPglite,
  rowsOf,
  withScratchDatabase,
  type SqlClient,
} from "./sql-client.server.ts";
import {
  cursorRows,
  insertRows,
  setSequences,
  withoutForeignKeys,
  withoutIndexes,
  withoutTriggers,
} from "./table-rows.server.ts";

/** Restoring a backup into an empty database, checking the file first and every table's row count after. */

/** A folder a restore makes (the data folder, say, on a new machine): its owner's only. */
const OWNER_ONLY = 0o700;

export type RestoreTarget = { pgliteDataDir: string } | { databaseUrl: string };

export type RestoreOutcome =
  /**
   * `leftOut`: per table, rows not restored because the embedded database changed while its backup was read:
   * their parent deleted (the database deleted them too), or a unique value of theirs taken over by another row.
   */
  | { kind: "restored"; header: BackupHeader; leftOut: Record<string, number> }
  | { kind: "refused"; message: string }
  /** The rows did not load (a row that does not fit its table, a file that ends early): nothing was kept. */
  | { kind: "failed"; message: string }
  | { kind: "mismatch"; message: string };

/** The tables whose row counts differ from the backup's, in words; null when every one matches. */
function countsDiffer(
  expected: DatabaseFacts["counts"],
  found: DatabaseFacts["counts"],
  leftOut: Record<string, number> = {},
): string | null {
  const differing = Object.entries(expected).filter(([table, count]) => found[table] !== count - (leftOut[table] ?? 0));
  if (differing.length === 0) return null;
  return differing
    .map(([table, count]) => `${table}: ${found[table] ?? "missing"} rows, the backup has ${count}`)
    .join("; ");
}

type Backup = Awaited<ReturnType<typeof readBackupFile>>;

/**
 * Every row of `text` into `target`'s tables, as the migrations made them, with the tables' foreign keys, secondary
 * indexes and own triggers off while the rows load, then on again; returns, per table, the rows left out.
 */
async function loadRows(
  target: SqlClient,
  tables: string[],
  text: AsyncIterable<Buffer | string>,
  { secondaryIndexes }: { secondaryIndexes: boolean },
): Promise<Record<string, number>> {
  const buildIndexes = await withoutIndexes(target);
  const enableTriggers = await withoutTriggers(target);
  const addForeignKeys = await withoutForeignKeys(target, tables);
  const leftOut = await insertRows(target, tables, text);
  for (const [table, rows] of Object.entries(await addForeignKeys())) leftOut[table] = (leftOut[table] ?? 0) + rows;
  await enableTriggers();
  if (secondaryIndexes) await buildIndexes();
  return leftOut;
}

/**
 * The backup's rows into `target`, a database the caller made sure is empty, in one transaction with the
 * migrations that make its tables; then its counts are compared. Whatever goes wrong on the way (a row that does
 * not fit its table, a file that ends early, counts that differ), the transaction is rolled back: the target is
 * left as empty as it was, with no table, foreign key, index or trigger changed. A verification's scratch database
 * skips building the indexes that are neither keys nor unique: counting rows needs none of them.
 */
async function fill(target: SqlClient, backup: Backup, { secondaryIndexes = true } = {}): Promise<RestoreOutcome> {
  const { header } = backup;
  await rowsOf(target, "BEGIN");
  try {
    let leftOut: Record<string, number> = {};
    if (backup.isDataFolder) {
      // The embedded data folder goes through a scratch database, and from there row by row.
      await withScratchDatabase(backup.path, (scratch) => copyRows(scratch, target, header), await backup.bytes());
    } else {
      await migrateTo(target, header.migrations);
      leftOut = await loadRows(target, header.tables, backup.text(), { secondaryIndexes });
      await setSequences(target, header.sequences);
    }
    const outcome = await compared(target, header, leftOut);
    await rowsOf(target, outcome.kind === "restored" ? "COMMIT" : "ROLLBACK");
    return outcome;
  } catch (error) {
    // A connection lost on the way has rolled back on its own.
    await rowsOf(target, "ROLLBACK").catch(() => undefined);
    const message =
      error instanceof DamagedBackup ? error.message : `The rows did not load: ${(error as Error).message}`;
    return { kind: "failed", message };
  }
}

/** The outcome of a restore into `target`: every table's count as the backup's, less the rows left out. */
async function compared(target: SqlClient, header: BackupHeader, leftOut: Record<string, number> = {}) {
  const differing = countsDiffer(header.counts, (await factsOf(target)).counts, leftOut);
  return differing
    ? ({ kind: "mismatch", message: differing } as const)
    : ({ kind: "restored", header, leftOut } as const);
}

/** Every row of `source` (a data folder of a version 1 backup) into `target`, in one snapshot of the source. */
async function copyRows(source: SqlClient, target: SqlClient, facts: DatabaseFacts): Promise<void> {
  await migrateTo(target, facts.migrations);
  await rowsOf(source, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  async function* everyRow() {
    for (const [index, table] of facts.tables.entries()) yield* cursorRows(source, table, index);
  }
  try {
    await loadRows(target, facts.tables, everyRow(), { secondaryIndexes: true });
  } finally {
    await rowsOf(source, "COMMIT");
  }
  await setSequences(target, facts.sequences);
}

async function readChecked(path: string) {
  try {
    return await readBackupFile(path);
  } catch (error) {
    if (error instanceof DamagedBackup) return { refused: error.message };
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { refused: `${path} does not exist.` };
    throw error;
  }
}

export async function restoreBackup(path: string, target: RestoreTarget): Promise<RestoreOutcome> {
  const backup = await readChecked(path);
  if ("refused" in backup) return { kind: "refused", message: backup.refused };
  if ("databaseUrl" in target) {
    const sql = await connectPostgres(target.databaseUrl);
    try {
      if (!(await isEmpty(sql))) {
        return {
          kind: "refused",
          message: "The PostgreSQL database is not empty: restore into a new, empty database.",
        };
      }
      return await fill(sql, backup);
    } finally {
      await sql.close();
    }
  }
  const dir = target.pgliteDataDir.replace(/\/+$/, "");
  const owner = await embeddedDatabaseOwner(dir);
  if (owner !== undefined)
    return { kind: "refused", message: `The server (process ${owner}) is using ${dir}: stop it first.` };
  const entries = await readdir(dir).catch(() => []);
  if (entries.length > 0) {
    return { kind: "refused", message: `${dir} is not empty: move it aside (or restore into a new folder) first.` };
  }
  // The database is made in a folder of its own beside the target, put in the target's place only once it is
  // whole: a restore that fails leaves the target as it found it.
  await mkdir(dirname(dir), { recursive: true, mode: OWNER_ONLY });
  const staging = await mkdtemp(join(dirname(dir), `.${basename(dir)}.restoring-`));
  try {
    const outcome = await intoEmbedded(staging, backup);
    if (outcome.kind === "restored") {
      // The target was found missing or empty; a folder that holds something now is not removed.
      await rmdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
      await rename(staging, dir);
      // PGlite makes its files readable by everyone: every lead and operator would be, until the server starts.
      await makeDataPrivate(dir);
    }
    return outcome;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The backup into a new embedded database in `dir`. */
async function intoEmbedded(dir: string, backup: Backup): Promise<RestoreOutcome> {
  if (backup.isDataFolder) {
    // The data folder itself, as it was; then its counts, read as the server would read them.
    const restored = await openPglite(dir, await backup.bytes());
    try {
      return await compared(restored, backup.header);
    } finally {
      await restored.close();
    }
  }
  const sql = await openPglite(dir);
  try {
    return await fill(sql, backup);
  } finally {
    await sql.close();
  }
}

/** Restores the backup into a scratch database and compares every table's row count with the backup's. */
export async function verifyBackup(path: string): Promise<RestoreOutcome> {
  const backup = await readChecked(path);
  if ("refused" in backup) return { kind: "refused", message: backup.refused };
  if (backup.isDataFolder) {
    return withScratchDatabase(path, (scratch) => compared(scratch, backup.header), await backup.bytes());
  }
  return withScratchDatabase(path, (scratch) => fill(scratch, backup, { secondaryIndexes: false }));
}

/**
 * `npm run db -- copy-to URL`: the embedded database (the server stopped) into an empty PostgreSQL database: a
 * backup of it beside the data folder, restored there (the project's migrations, then every table's rows, with their
 * counts compared), then deleted.
 */
export async function copyToPostgres(pgliteDataDir: string, databaseUrl: string): Promise<RestoreOutcome> {
  const target = await connectPostgres(databaseUrl);
  try {
    if (!(await isEmpty(target))) {
      return { kind: "refused", message: "The PostgreSQL database is not empty: copy into a new, empty database." };
    }
  } finally {
    await target.close();
  }
  let embedded;
  try {
    embedded = await openDatabase({ pgliteDataDir });
  } catch (error) {
    return { kind: "refused", message: (error as Error).message };
  }
  const folder = await mkdtemp(join(dirname(pgliteDataDir), ".copy-"));
  try {
    const made = await makeBackup(embedded, folder).finally(() => embedded.close());
    return await restoreBackup(made.path, { databaseUrl });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
