/**
 * The thread that owns the embedded database. PGlite runs PostgreSQL inside this thread, and on disk its
 * writes are synchronous file-system calls: here they block only this thread, not the event loop that
 * serves HTTP (docs/decisions/095-pglite-in-a-worker-thread.md). Opened by db.server.ts, which posts
 * each statement here and gets its rows back; a statement is answered only after PGlite has run it, so
 * a committed lead is on its way to disk before its visitor is told so.
 */
import { parentPort, workerData } from "node:worker_threads";
import { parse, PGlite, protocol, types } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { PgliteRequest, PgliteReply, PgliteWorkerData, SerializedError } from "./pglite-messages.server.ts";

const { dataDir, migrationsFolder } = workerData as PgliteWorkerData;
const port = parentPort!;

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

const client = await PGlite.create(dataDir);
await migrate(drizzle({ client }), { migrationsFolder });
const run = statementRunner(client);
const inFlight = new Set<Promise<unknown>>();

async function answer(request: Exclude<PgliteRequest, { kind: "close" }>): Promise<PgliteReply> {
  try {
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

port.on("message", async (request: PgliteRequest) => {
  if (request.kind === "close") {
    // Statements already received are answered before the database closes.
    await Promise.allSettled(inFlight);
    await client.close();
    port.close();
    return;
  }
  const work = answer(request).then((reply) => port.postMessage(reply));
  inFlight.add(work);
  await work.finally(() => inFlight.delete(work));
});

port.postMessage({ ready: true } satisfies PgliteReply);
