import { mkdir, open, readFile, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleProxy } from "drizzle-orm/pg-proxy";
import pg from "pg";
import * as schema from "./db-schema.server.ts";
import { openPgliteThread } from "./pglite-thread.server.ts";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * One hand-written statement, one round trip, no query builder: for the few statements on the hot path
 * (docs/decisions/050-one-statement-per-lead.md). `name` identifies the statement text; on PostgreSQL it
 * is prepared once per connection under that name.
 */
export type RunStatement = <Row>(name: string, text: string, params: unknown[]) => Promise<Row[]>;

export interface OpenDatabase {
  db: Database;
  run: RunStatement;
  /** Where the data lives, for the start-up log (no credentials). */
  description: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL server; when absent, embedded PGlite in `pgliteDataDir` ("memory://" for tests). */
  databaseUrl?: string;
  pgliteDataDir: string;
  poolSize?: number;
}

const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../drizzle", import.meta.url));
// Any constant will do; it keeps two instances starting together from migrating at once.
const MIGRATION_LOCK_KEY = 4_242_001;

/** Opens the database and applies pending migrations. Call once at start: PGlite takes seconds to open. */
export async function openDatabase(options: DatabaseOptions): Promise<OpenDatabase> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : openPglite(options.pgliteDataDir);
}

async function openPglite(dataDir: string): Promise<OpenDatabase> {
  const inMemory = dataDir.startsWith("memory://");
  const releaseLock = inMemory ? async () => {} : await lockDataDir(dataDir);
  try {
    const thread = await openPgliteThread(dataDir, MIGRATIONS_FOLDER);
    // drizzle's proxy driver: its selects ("all") want rows as arrays, everything else rows as objects.
    const db = drizzleProxy(
      async (text, params, method) => ({
        rows: await thread.request({ kind: "query", text, params, rowMode: method === "all" ? "array" : "object" }),
      }),
      { schema },
    );
    return {
      db: db as unknown as Database,
      run: <Row>(name: string, text: string, params: unknown[]) =>
        thread.request({ kind: "run", name, text, params }) as Promise<Row[]>,
      description: inMemory ? "PGlite in memory" : `PGlite in ${dataDir}`,
      async close() {
        await thread.close();
        await releaseLock();
      },
    };
  } catch (error) {
    await releaseLock();
    throw error;
  }
}

/**
 * PGlite is one process's database: a second process opening the same folder (the CLI while the
 * server runs, or a second server) would corrupt it. A lock file holding the owner's pid refuses that;
 * one left by a process that has died is taken over.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const lockPath = `${dataDir.replace(/\/+$/, "")}.lock`;
  for (;;) {
    try {
      const file = await open(lockPath, "wx");
      await file.writeFile(String(process.pid));
      await file.close();
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(await readFile(lockPath, "utf8").catch(() => ""));
      if (owner && isRunning(owner)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${owner}. Stop it first, or set DATABASE_URL to use a PostgreSQL server.`,
        );
      }
      await rm(lockPath, { force: true });
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function openPostgres(databaseUrl: string, poolSize: number): Promise<OpenDatabase> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    // Fail fast, so a visitor gets a 503 rather than a hung request when the server is down.
    connectionTimeoutMillis: 5_000,
    query_timeout: 15_000,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on("error", (error) => console.error("PostgreSQL connection error:", error.message));
  const db = drizzleNodePg({ client: pool, schema });
  const lockClient = await pool.connect();
  try {
    await lockClient.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrateNodePg(drizzleNodePg({ client: lockClient, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lockClient.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
    lockClient.release();
  }
  const { host, pathname } = new URL(databaseUrl);
  return {
    db: db as unknown as Database,
    run: async <Row>(name: string, text: string, values: unknown[]) =>
      (await pool.query<Row & pg.QueryResultRow>({ name, text, values })).rows,
    description: `PostgreSQL at ${host}${pathname}`,
    close: () => pool.end(),
  };
}
