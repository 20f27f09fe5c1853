import { mkdtemp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PGlite, types } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { databaseFacts, type DatabaseFacts } from "./database-facts.server.ts";
import { projectPath } from "../project-path.server.ts";

/**
 * One connection that backups, restores and copies talk to, whichever database it is: an embedded database
 * opened in this process (only when the server does not hold it), or a PostgreSQL client.
 */
export type SqlClient =
  | { kind: "pglite"; client: PGlite; close(): Promise<void> }
  | { kind: "postgresql"; client: pg.Client; close(): Promise<void> };

/** PostgreSQL's shared buffer cache inside PGlite's memory: small, as the server's own (the rest is the file cache). */
const START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];

/** An embedded database in `dataDir`, or a new one loaded from a data folder's tar file. */
export async function openPglite(dataDir: string, tar?: Uint8Array): Promise<SqlClient> {
  const client = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    startParams: START_PARAMS,
    ...(tar ? { loadDataDir: new Blob([tar as Uint8Array<ArrayBuffer>]) } : {}),
  });
  return { kind: "pglite", client, close: () => client.close() };
}

/**
 * A scratch embedded database on disk, in a new folder beside `near` (a backup file): in memory, a year of a busy
 * site's rows would need gigabytes. Closed and deleted once `work` is done.
 */
export async function withScratchDatabase<T>(
  near: string,
  work: (scratch: SqlClient) => Promise<T>,
  tar?: Uint8Array,
): Promise<T> {
  const folder = await mkdtemp(join(dirname(near), ".scratch-"));
  try {
    const scratch = await openPglite(join(folder, "pglite"), tar);
    try {
      return await work(scratch);
    } finally {
      await scratch.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export async function connectPostgres(url: string): Promise<SqlClient> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { kind: "postgresql", client, close: () => client.end() };
}

/**
 * A statement's rows. A Buffer parameter goes to the database as its bytes, in binary form (for json, its text's
 * bytes): both drivers do so for bytes, but the embedded database's serializes a json parameter as JSON first.
 */
export async function rowsOf(sql: SqlClient, text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (sql.kind === "postgresql") return (await sql.client.query(text, params)).rows;
  const { client } = sql;
  // PGlite's types say a serializer returns a string; its Bind message sends a Uint8Array as bytes.
  const json = (value: unknown) =>
    (value instanceof Uint8Array ? value : client.serializers[types.JSON]!(value)) as string;
  return (await client.query(text, params, { serializers: { [types.JSON]: json } })).rows as Record<string, unknown>[];
}

export const factsOf = (sql: SqlClient): Promise<DatabaseFacts> => databaseFacts((text) => rowsOf(sql, text));

/** Whether the database has no tables of this project's (nor any other) yet: a restore writes only into such a one. */
export async function isEmpty(sql: SqlClient): Promise<boolean> {
  const [row] = await rowsOf(
    sql,
    "SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
  );
  return Number(row?.tables) === 0;
}

/**
 * Applies the project's first `level` migrations as drizzle's migrator does (the same statements, the same record
 * of each in `drizzle.__drizzle_migrations`), but inside the caller's transaction: the migrator opens and commits
 * a transaction of its own, and a restore that fails must leave no table behind. A backup's rows go into the
 * tables as they were when it was made; the server applies the newer migrations when it starts.
 */
export async function migrateTo(sql: SqlClient, level: number): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: projectPath("drizzle") });
  if (level > migrations.length) {
    throw new Error(`The backup needs ${level} migrations and this version has ${migrations.length}: update first.`);
  }
  await rowsOf(sql, "CREATE SCHEMA IF NOT EXISTS drizzle");
  await rowsOf(
    sql,
    "CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)",
  );
  for (const migration of migrations.slice(0, level)) {
    for (const statement of migration.sql) {
      if (sql.kind === "pglite") await sql.client.exec(statement);
      else await sql.client.query(statement);
    }
    await rowsOf(sql, "INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)", [
      migration.hash,
      migration.folderMillis,
    ]);
  }
}
