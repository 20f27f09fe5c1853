/**
 * A thread that owns an embedded database. PGlite runs PostgreSQL inside this thread, and on disk its
 * writes are synchronous file-system calls: here they block only this thread, not the event loop that
 * serves HTTP (docs/decisions/095-pglite-in-a-worker-thread.md). pglite-thread.server.ts posts each
 * statement here and gets its rows back; a statement is answered only after PGlite has run it, so
 * a committed lead is on its way to disk before its visitor is told so.
 */
import { parentPort } from "node:worker_threads";
import { parse, PGlite, protocol, types } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { PgliteReply, PgliteRequest, SerializedError } from "./pglite-messages.server.ts";

/**
 * Requests come from the server's main thread; a new database folder is created by this same module in a child
 * process of the server (pglite-thread.server.ts), whose requests come over the process's IPC channel.
 */
const port = parentPort ?? {
  on: (event: "message", listener: (request: PgliteRequest) => void) => process.on(event, listener),
  postMessage: (reply: PgliteReply) => process.send!(reply),
};

/**
 * drizzle maps dates, timestamps and intervals from PostgreSQL's text itself, so they come back as text,
 * exactly as drizzle's own PGlite driver asks for them.
 */
const asText = (value: string) => value;
const DRIZZLE_PARSERS = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [
    oid,
    asText,
  ]),
);

/**
 * PGlite's query() parses and plans its statement on every call and crosses into WebAssembly six times
 * (Parse, Describe, Bind, Describe, Execute, Sync). Here a statement is parsed once under its name, and
 * each run is one Bind/Describe/Execute/Sync message: about 330 µs instead of 780 µs for the lead statement
 * (docs/decisions/050-one-statement-per-lead.md). It takes the same two locks as query(), so it never
 * interleaves with a query; those `_runExclusive…` methods are typed but underscored, which is why pglite's
 * version is pinned exactly.
 */
function statementRunner(client: PGlite) {
  const prepared = new Set<string>();
  const send = (...messages: Uint8Array[]) => client.execProtocolStream(Buffer.concat(messages), {});
  return (name: string, text: string, params: unknown[]) =>
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        if (!prepared.has(name)) {
          await send(protocol.serialize.parse({ name, text }), protocol.serialize.sync());
          prepared.add(name);
        }
        const replies = await send(
          protocol.serialize.bind({ statement: name, values: params.map(parameterText) }),
          protocol.serialize.describe({ type: "P" }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        );
        return parse.parseResults(replies, client.parsers)[0]!.rows;
      }),
    );
}

/** A parameter in PostgreSQL's text format, as PGlite's own serializers write it. */
function parameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}

/** Errors cross the thread as plain data; PostgreSQL's fields (code, detail, constraint...) are kept. */
function serialize(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: SerializedError = { message: error.message };
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === "string" || typeof value === "number") fields[key] = value;
  }
  return fields;
}

/**
 * PostgreSQL's shared buffer cache, inside the thread's WebAssembly memory. Its default of 128 MB would be most
 * of the server's memory; the site's tables are small, and a page missing from the cache is read from the
 * operating system's file cache.
 */
const SHARED_BUFFERS = "32MB";
const START_PARAMS = [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`];

let client: PGlite | undefined;
let run: ReturnType<typeof statementRunner> | undefined;

async function open(dataDir: string, migrationsFolder: string) {
  if (client) throw new Error("This thread already has a database open.");
  const opened = await PGlite.create(dataDir, {
    startParams: START_PARAMS,
    // Trigram indexes make the console's searches for any part of a name, an email or a phone number's digits fast.
    extensions: { pg_trgm },
  });
  try {
    await migrate(drizzle({ client: opened }), { migrationsFolder });
  } catch (error) {
    await opened.close();
    throw error;
  }
  client = opened;
  run = statementRunner(opened);
}

async function close() {
  const closing = client;
  client = undefined;
  run = undefined;
  await closing?.close();
}

async function answer(request: PgliteRequest): Promise<PgliteReply> {
  try {
    if (request.kind === "open") await open(request.dataDir, request.migrationsFolder);
    if (request.kind === "close") await close();
    if (request.kind === "open" || request.kind === "close") return { id: request.id, rows: [] };
    if (!client || !run) throw new Error("The embedded database is closed.");
    const rows =
      request.kind === "run"
        ? await run(request.name, request.text, request.params)
        : (await client.query(request.text, request.params, { rowMode: request.rowMode, parsers: DRIZZLE_PARSERS }))
            .rows;
    return { id: request.id, rows };
  } catch (error) {
    return { id: request.id, error: serialize(error) };
  }
}

/**
 * The database runs one statement at a time, so statements wait here, in the order they came, and are handed to
 * PGlite one by one. A statement sent `first` (a caller waiting on the line for the call's next step) goes before
 * those already waiting, but never before one that has begun. A close waits for the statements received before it.
 */
const waiting: PgliteRequest[] = [];
const waitingFirst: PgliteRequest[] = [];
let running = false;

async function runNext() {
  const request = waitingFirst.shift() ?? waiting.shift();
  if (!request) {
    running = false;
    return;
  }
  port.postMessage(await answer(request));
  // The next is picked after the messages that came meanwhile are received, so a statement sent first while
  // this one ran can go next.
  setImmediate(() => void runNext());
}

port.on("message", (request: PgliteRequest) => {
  (request.kind === "run" && request.first ? waitingFirst : waiting).push(request);
  if (running) return;
  running = true;
  void runNext();
});
