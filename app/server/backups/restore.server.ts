import { readdir } from "node:fs/promises";
import { embeddedDatabaseOwner, openDatabase, type DatabaseFacts } from "../db/index.server.ts";
import { DamagedBackup, readBackupFile, type BackupHeader } from "./backup-file.server.ts";
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
import { insertRows, linesOf, rowLines, setSequences } from "./table-rows.server.ts";

/** Restoring a backup into an empty database, checking the file first and every table's row count after. */

export type RestoreTarget = { pgliteDataDir: string } | { databaseUrl: string };

export type RestoreOutcome =
  | { kind: "restored"; header: BackupHeader }
  | { kind: "refused"; message: string }
  | { kind: "mismatch"; message: string };

/** The tables whose row counts differ from the backup's, in words; null when every one matches. */
function countsDiffer(expected: DatabaseFacts["counts"], found: DatabaseFacts["counts"]): string | null {
  const differing = Object.entries(expected).filter(([table, count]) => found[table] !== count);
  if (differing.length === 0) return null;
  return differing
    .map(([table, count]) => `${table}: ${found[table] ?? "missing"} rows, the backup has ${count}`)
    .join("; ");
}

/** The backup's rows into `target`, a database the caller made sure is empty; then its counts are compared. */
async function fill(target: SqlClient, backup: Awaited<ReturnType<typeof readBackupFile>>): Promise<RestoreOutcome> {
  const { header } = backup;
  if (header.database === "pglite") {
    // The embedded data folder goes through a scratch database, and from there row by row.
    await withScratchDatabase(backup.path, (scratch) => copyRows(scratch, target, header), await backup.bytes());
  } else {
    await migrateTo(target, header.migrations);
    await insertRows(target, header.tables, backup.lines());
    await setSequences(target, header.sequences);
  }
  const differing = countsDiffer(header.counts, (await factsOf(target)).counts);
  return differing ? { kind: "mismatch", message: differing } : { kind: "restored", header };
}

/** Every row of `source` into `target` at the migrations the facts name, in one snapshot of the source. */
async function copyRows(source: SqlClient, target: SqlClient, facts: DatabaseFacts): Promise<void> {
  await migrateTo(target, facts.migrations);
  await rowsOf(source, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  try {
    await insertRows(target, facts.tables, linesOf(rowLines(source, facts.tables)));
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
  const dir = target.pgliteDataDir;
  const owner = await embeddedDatabaseOwner(dir);
  if (owner !== undefined)
    return { kind: "refused", message: `The server (process ${owner}) is using ${dir}: stop it first.` };
  const entries = await readdir(dir).catch(() => []);
  if (entries.length > 0) {
    return { kind: "refused", message: `${dir} is not empty: move it aside (or restore into a new folder) first.` };
  }
  if (backup.header.database === "pglite") {
    // The data folder itself, as it was; then its counts, read as the server would read them.
    const restored = await openPglite(dir, await backup.bytes());
    try {
      const differing = countsDiffer(backup.header.counts, (await factsOf(restored)).counts);
      return differing ? { kind: "mismatch", message: differing } : { kind: "restored", header: backup.header };
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
  if (backup.header.database === "pglite") {
    return withScratchDatabase(
      path,
      async (scratch) => {
        const differing = countsDiffer(backup.header.counts, (await factsOf(scratch)).counts);
        return differing ? { kind: "mismatch", message: differing } : { kind: "restored", header: backup.header };
      },
      await backup.bytes(),
    );
  }
  return withScratchDatabase(path, (scratch) => fill(scratch, backup));
}

/**
 * `npm run db -- copy-to URL`: the embedded database (the server stopped) into an empty PostgreSQL database, by the
 * project's migrations and then every table's rows, with their counts compared.
 */
export async function copyToPostgres(pgliteDataDir: string, databaseUrl: string): Promise<RestoreOutcome> {
  const target = await connectPostgres(databaseUrl);
  try {
    if (!(await isEmpty(target))) {
      return { kind: "refused", message: "The PostgreSQL database is not empty: copy into a new, empty database." };
    }
    let embedded;
    try {
      embedded = await openDatabase({ pgliteDataDir });
    } catch (error) {
      return { kind: "refused", message: (error as Error).message };
    }
    const { tar, ...facts } = await embedded.snapshot!().finally(() => embedded.close());
    await withScratchDatabase(pgliteDataDir, (scratch) => copyRows(scratch, target, facts), tar);
    const header = {
      format: "plumbline-backup",
      version: 1,
      database: "pglite",
      createdAt: new Date().toISOString(),
      ...facts,
    } as const;
    const differing = countsDiffer(facts.counts, (await factsOf(target)).counts);
    return differing ? { kind: "mismatch", message: differing } : { kind: "restored", header };
  } finally {
    await target.close();
  }
}
