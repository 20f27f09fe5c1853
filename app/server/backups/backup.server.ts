import { sql } from "drizzle-orm";
import { executeRows, type Database, type RunStatement } from "../db/index.server.ts";
import { backupFileName, writeBackupFile, type BackupHeader } from "./backup-file.server.ts";
import { migrationsApplied, primaryKeys, sequencePositions, tablesInOrder } from "./database-facts.server.ts";
import { connectPostgres, rowsOf } from "./sql-client.server.ts";
import { cursorRows, keysetRows } from "./table-rows.server.ts";

/** Where a backup reads the database: a PostgreSQL server, else the embedded database through its connection. */
export interface BackupSource {
  databaseUrl?: string;
  db: Database;
  run: RunStatement;
}

export interface MadeBackup {
  path: string;
  sizeBytes: number;
  header: BackupHeader;
}

/**
 * A copy of the whole database into `dir`, made while the site serves. PostgreSQL's is every row read in one
 * REPEATABLE READ transaction, which holds no lock that lead intake waits for, pausing after each fetch. The
 * embedded database has one connection, so its rows are read a short statement at a time, lead intake's statements
 * running between them; a table is read before the tables it references, so each row's references were there when
 * it was read.
 */
export async function makeBackup(source: BackupSource, dir: string, now = new Date()): Promise<MadeBackup> {
  const createdAt = now.toISOString();
  if (!source.databaseUrl) {
    const query = (text: string) => executeRows<Record<string, unknown>>(source.db, sql.raw(text));
    const tables = await tablesInOrder(query);
    const keys = await primaryKeys(query);
    return writeBackupFile(
      dir,
      backupFileName(now, "pglite"),
      { format: "plumbline-backup", database: "pglite", createdAt, tables, migrations: await migrationsApplied(query) },
      (table, index) => keysetRows(source.run, table, index, keys.get(table)),
      () => sequencePositions(query),
    );
  }
  const postgres = await connectPostgres(source.databaseUrl);
  try {
    await rowsOf(postgres, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const query = (text: string) => rowsOf(postgres, text);
    const made = await writeBackupFile(
      dir,
      backupFileName(now, "postgresql"),
      {
        format: "plumbline-backup",
        database: "postgresql",
        createdAt,
        tables: await tablesInOrder(query),
        migrations: await migrationsApplied(query),
      },
      (table, index) => cursorRows(postgres, table, index, { pausing: true }),
      () => sequencePositions(query),
    );
    await rowsOf(postgres, "COMMIT");
    return made;
  } finally {
    await postgres.close();
  }
}
