import { mkdir, open, readFile, rm } from "node:fs/promises";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { sql, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleProxy } from "drizzle-orm/pg-proxy";
import pg from "pg";
import { log } from "../log.server.ts";
import { openPgliteThread } from "./pglite-thread.server.ts";
import { projectPath } from "../project-path.server.ts";
import { isProcessRunning } from "../process-running.server.ts";
import { makeDataPrivate } from "./private-files.server.ts";
import { postgresStreamRows, type StreamRows } from "./copy-rows.server.ts";

export type Database = PgDatabase<PgQueryResultHKT>;

/**
 * One hand-written statement, one round trip, no query builder: for the few statements on the hot path
 * (docs/decisions/050-one-statement-per-lead.md). `name` identifies the statement text; on PostgreSQL it
 * is prepared once per connection under that name.
 */
export type RunStatement = <Row>(name: string, text: string, params: unknown[]) => Promise<Row[]>;

/**
 * The rows of a hand-written statement run through drizzle: its node-postgres driver answers with a
 * QueryResult, its proxy driver (the embedded database's thread) with the rows themselves.
 */
export async function executeRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result: unknown = await db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
}

/**
 * Texts without line breaks (keys, ids, phone digits) as the rows of one column (`unnest`), from one parameter
 * however many there are: a text a line. Sent as JSON, PGlite took three times as long to read 100,000 of them.
 */
export function textRows(texts: string[]): SQL {
  return sql`unnest(string_to_array(${texts.join("\n")}::text, E'\n'))`;
}

export interface OpenDatabase {
  db: Database;
  run: RunStatement;
  /**
   * `run` for a statement someone is waiting on the line for (a call's next step): on the embedded database's one
   * connection it goes before the statements already waiting; PostgreSQL's pool runs it as `run`.
   */
  runFirst: RunStatement;
  /** PostgreSQL's rows as a stream, for exports of whole tables (the embedded database has none). */
  streamRows?: StreamRows;
  /** Where the data lives, for the start-up log (no credentials). */
  description: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL server; when absent, embedded PGlite in `pgliteDataDir` ("memory://" for tests). */
  databaseUrl?: string;
  pgliteDataDir: string;
  poolSize?: number;
  /** PostgreSQL cancels a statement running longer than this (default 10 s). */
  statementTimeoutMs?: number;
}

const MIGRATIONS_FOLDER = projectPath("drizzle");
// Any constant will do; it keeps two instances starting together from migrating at once.
const MIGRATION_LOCK_KEY = 4_242_001;

/** Opens the database and applies pending migrations. Call once at start: PGlite takes seconds to open. */
export async function openDatabase(options: DatabaseOptions): Promise<OpenDatabase> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10, options.statementTimeoutMs ?? 10_000)
    : openPglite(options.pgliteDataDir);
}

async function openPglite(dataDir: string): Promise<OpenDatabase> {
  const inMemory = dataDir.startsWith("memory://");
  const releaseLock = inMemory ? async () => {} : await lockDataDir(dataDir);
  // Owner-only before the database opens (fixing an older install), and again after it has added its files.
  const makePrivate = inMemory ? async () => {} : () => makeDataPrivate(dataDir);
  try {
    await makePrivate();
    const thread = await openPgliteThread(dataDir, MIGRATIONS_FOLDER);
    await makePrivate();
    // drizzle's proxy driver: its selects ("all") want rows as arrays, everything else rows as objects.
    const db = drizzleProxy(async (text, params, method) => ({
      rows: await thread.request({ kind: "query", text, params, rowMode: method === "all" ? "array" : "object" }),
    }));
    return {
      db: db as unknown as Database,
      run: <Row>(name: string, text: string, params: unknown[]) =>
        thread.request({ kind: "run", name, text, params }) as Promise<Row[]>,
      runFirst: <Row>(name: string, text: string, params: unknown[]) =>
        thread.request({ kind: "run", name, text, params, first: true }) as Promise<Row[]>,
      description: inMemory ? "PGlite in memory" : `PGlite in ${dataDir}`,
      async close() {
        await thread.close();
        // Files the database created while it ran were made 0666 by PGlite (inside a 0700 folder).
        await makePrivate().catch((error: unknown) =>
          log.error({ err: error }, "data folder could not be made private"),
        );
        await releaseLock();
      },
    };
  } catch (error) {
    await releaseLock();
    throw error;
  }
}

/** Data folders this process has open: a second open of one would corrupt it as surely as another process's. */
const heldLocks = new Set<string>();

/**
 * PGlite is one process's database: a second process opening the same folder (the CLI while the
 * server runs, or a second server) would corrupt it. A lock file naming the owner refuses that. The owner
 * is its pid plus when that process started (boot id and start time), so a lock left by a process that has
 * died is taken over even when its pid has been reused, by another process or by this one: in a container
 * the server is pid 1 on every start (docs/decisions/084).
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const lockPath = `${dataDir.replace(/\/+$/, "")}.lock`;
  if (heldLocks.has(lockPath)) throw inUse(dataDir, process.pid);
  const self = `${process.pid} ${await processStart(process.pid)}`;
  for (;;) {
    try {
      const file = await open(lockPath, "wx", 0o600);
      await file.writeFile(self);
      await file.close();
      heldLocks.add(lockPath);
      return async () => {
        heldLocks.delete(lockPath);
        await rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const { owner, started } = await readLock(lockPath);
      if (owner && (await isOwnerAlive(owner, started))) throw inUse(dataDir, owner);
      await rm(lockPath, { force: true });
    }
  }
}

/** The pid of the live process holding the embedded database in `dataDir`, if one does (not this process). */
export async function embeddedDatabaseOwner(dataDir: string): Promise<number | undefined> {
  const { owner, started } = await readLock(`${dataDir.replace(/\/+$/, "")}.lock`);
  return owner && (await isOwnerAlive(owner, started)) ? owner : undefined;
}

/** A lock file holds "pid start"; a missing or unreadable one names no owner. */
async function readLock(lockPath: string): Promise<{ owner: number; started: string | undefined }> {
  const [pid = "", started] = (await readFile(lockPath, "utf8").catch(() => "")).trim().split(" ");
  return { owner: Number(pid), started };
}

function inUse(dataDir: string, owner: number): Error {
  return new Error(
    `The embedded database in ${dataDir} is in use by process ${owner}. Stop it first, or set DATABASE_URL to use a PostgreSQL server.`,
  );
}

/** Whether the process that wrote a lock still runs: not this process (checked above), alive, same start. */
async function isOwnerAlive(pid: number, started: string | undefined): Promise<boolean> {
  if (pid === process.pid || !isProcessRunning(pid)) return false;
  // A lock without a start (an older format, or no /proc) can only be judged by its pid.
  if (!started || started === "unknown") return true;
  return (await processStart(pid)) === started;
}

/** The boot id and the start time (clock ticks since boot) of a process, from Linux's /proc; "unknown" elsewhere. */
async function processStart(pid: number): Promise<string> {
  try {
    const [bootId, stat] = await Promise.all([
      readFile("/proc/sys/kernel/random/boot_id", "utf8"),
      readFile(`/proc/${pid}/stat`, "utf8"),
    ]);
    // Fields after the command name (which may hold spaces) start at field 3; the start time is field 22.
    const startTicks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    return startTicks ? `${bootId.trim()}:${startTicks}` : "unknown";
  } catch {
    return "unknown";
  }
}

async function openPostgres(databaseUrl: string, poolSize: number, statementTimeoutMs: number): Promise<OpenDatabase> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    // Fail fast, so a visitor gets a 503 rather than a hung request when the server is down.
    connectionTimeoutMillis: 5_000,
    // The server cancels a slow statement, and a cancelled statement has written nothing, so a 503 means
    // "not stored". The client waits longer than that: had it given up first, the statement could still commit.
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + 5_000,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on("error", (error) => log.error(`PostgreSQL connection error: ${error.message}`));
  const db = drizzleNodePg({ client: pool });
  const lockClient = await pool.connect();
  try {
    // Waiting for another instance's migrations, or running a long one, is not a visitor's statement.
    await lockClient.query("SET statement_timeout = 0");
    await lockClient.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrateNodePg(drizzleNodePg({ client: lockClient }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lockClient.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lockClient.query("RESET statement_timeout").catch(() => undefined);
    lockClient.release();
  }
  const { host, pathname } = new URL(databaseUrl);
  const runPooled = async <Row>(name: string, text: string, values: unknown[]) =>
    (await pool.query<Row & pg.QueryResultRow>({ name, text, values })).rows;
  return {
    db: db as unknown as Database,
    run: runPooled,
    runFirst: runPooled,
    streamRows: postgresStreamRows(databaseUrl),
    description: `PostgreSQL at ${host}${pathname}`,
    close: () => pool.end(),
  };
}
