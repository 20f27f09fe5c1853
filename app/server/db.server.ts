import { mkdir, open, readFile, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parse, PGlite, protocol } from "@electric-sql/pglite";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "./db-schema.server.ts";

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
  const client = await PGlite.create(dataDir);
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db: db as unknown as Database,
    run: pgliteStatementRunner(client),
    description: inMemory ? "PGlite in memory" : `PGlite in ${dataDir}`,
    async close() {
      await client.close();
      await releaseLock();
    },
  };
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

/** The pid of the live process holding the embedded database in `dataDir`, if one does. */
export async function embeddedDatabaseOwner(dataDir: string): Promise<number | undefined> {
  const owner = Number(await readFile(`${dataDir.replace(/\/+$/, "")}.lock`, "utf8").catch(() => ""));
  return owner && owner !== process.pid && isRunning(owner) ? owner : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite's query() parses and plans its statement on every call and crosses into WebAssembly six times
 * (Parse, Describe, Bind, Describe, Execute, Sync). Here a statement is parsed once under its name, and
 * each run is one Bind/Describe/Execute/Sync message: about 330 µs instead of 780 µs for the lead statement
 * (docs/decisions/050-one-statement-per-lead.md). It takes the same two locks as query(), so it never
 * interleaves with a query or a transaction; those `_runExclusive…` methods are typed but underscored,
 * which is why pglite's version is pinned exactly.
 */
function pgliteStatementRunner(client: PGlite): RunStatement {
  const prepared = new Set<string>();
  const send = (...messages: Uint8Array[]) => client.execProtocolStream(Buffer.concat(messages), {});
  return (name, text, params) =>
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        if (!prepared.has(name)) {
          await send(protocol.serialize.parse({ name, text }), protocol.serialize.sync());
          prepared.add(name);
        }
        const replies = await send(
          protocol.serialize.bind({ statement: name, values: params.map(asText) }),
          protocol.serialize.describe({ type: "P" }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        );
        return parse.parseResults(replies, client.parsers)[0]!.rows as never;
      }),
    );
}

/** A parameter in PostgreSQL's text format, as PGlite's own serializers write it. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
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
