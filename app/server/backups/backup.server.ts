import type { EmbeddedSnapshot } from "../db/index.server.ts";
import { backupFileName, writeBackupFile, type BackupHeader } from "./backup-file.server.ts";
import { connectPostgres, factsOf, rowsOf } from "./sql-client.server.ts";
import { rowLines } from "./table-rows.server.ts";

/** Where a backup reads the database: the embedded database's own snapshot, or a PostgreSQL server. */
export interface BackupSource {
  snapshot?: () => Promise<EmbeddedSnapshot>;
  databaseUrl?: string;
}

export interface MadeBackup {
  path: string;
  sizeBytes: number;
  header: BackupHeader;
}

/**
 * A consistent copy of the whole database into `dir`. The embedded database's is its data folder, taken between two
 * statements (they wait a moment); PostgreSQL's is every row read in one REPEATABLE READ transaction, which holds
 * no lock that lead intake waits for.
 */
export async function makeBackup(source: BackupSource, dir: string, now = new Date()): Promise<MadeBackup> {
  const createdAt = now.toISOString();
  if (source.snapshot) {
    const { tar, ...facts } = await source.snapshot();
    const header: BackupHeader = { format: "plumbline-backup", version: 1, database: "pglite", createdAt, ...facts };
    return { ...(await writeBackupFile(dir, backupFileName(now, "pglite"), header, [tar])), header };
  }
  if (!source.databaseUrl) throw new Error("Nothing to back up: no database.");
  const sql = await connectPostgres(source.databaseUrl);
  try {
    await rowsOf(sql, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const facts = await factsOf(sql);
    const header: BackupHeader = {
      format: "plumbline-backup",
      version: 1,
      database: "postgresql",
      createdAt,
      ...facts,
    };
    const written = await writeBackupFile(dir, backupFileName(now, "postgresql"), header, rowLines(sql, facts.tables));
    await rowsOf(sql, "COMMIT");
    return { ...written, header };
  } finally {
    await sql.close();
  }
}
