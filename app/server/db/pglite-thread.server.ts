/**
 * The main thread's side of the embedded database's worker thread (pglite-worker.server.ts;
 * docs/decisions/095-pglite-in-a-worker-thread.md). A thread that fails or exits fails every statement
 * waiting on it, and every later one, so a visitor gets a 503 rather than a request that never ends.
 */
import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { PgliteReply, PgliteRequest } from "./pglite-messages.server.ts";
import { startTypeScriptWorker } from "./typescript-worker.server.ts";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Statement = DistributiveOmit<Extract<PgliteRequest, { kind: "run" | "query" }>, "id">;

export interface PgliteConnection {
  request(statement: Statement): Promise<unknown[]>;
  /** Answers the statements already sent, then closes the database. */
  close(): Promise<void>;
}

export interface PgliteThread {
  send(request: DistributiveOmit<PgliteRequest, "id">): Promise<unknown[]>;
  readonly failed: boolean;
  worker: Worker;
}

/** Where an open gets its thread and where a close leaves it. */
export interface PgliteThreads {
  take(): PgliteThread;
  give(thread: PgliteThread): void;
}

/** Each database its own thread, stopped when it closes. */
const threadPerDatabase: PgliteThreads = {
  take: startPgliteThread,
  give: (thread) => void thread.worker.terminate(),
};

/**
 * Opens the database in `dataDir` (or in memory) in a thread of `threads`. A new folder is created first, in a
 * passing process (createInPassingProcess).
 */
export async function openPgliteThread(
  dataDir: string,
  migrationsFolder: string,
  threads: PgliteThreads = threadPerDatabase,
): Promise<PgliteConnection> {
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory && !existsSync(join(dataDir, "PG_VERSION"))) await createInPassingProcess(dataDir, migrationsFolder);
  const thread = threads.take();
  // While a database is open its thread keeps the process alive.
  thread.worker.ref();
  const release = () => threads.give(thread);
  try {
    await thread.send({ kind: "open", dataDir, migrationsFolder });
  } catch (error) {
    release();
    throw error;
  }
  let closed = false;
  return {
    request: (statement) =>
      closed ? Promise.reject(new Error("The embedded database is closed.")) : thread.send(statement),
    async close() {
      if (closed) return;
      closed = true;
      // A thread that has failed has nothing left to close.
      if (!thread.failed) await thread.send({ kind: "close" }).catch(() => undefined);
      release();
    },
  };
}

/**
 * Creates and migrates a new database folder in a child process that then exits. Creating one runs PostgreSQL's
 * initdb, which grows WebAssembly memory by several hundred MB and leaves the allocator's arenas fragmented; in a
 * process of its own, all of it goes back to the system when it exits, and the thread that serves the database
 * afterwards only opens the folder. The child holds nothing open but its channel to this process: if the server
 * is killed, the channel closes and the child stops with it, so it never writes the folder beside the next start.
 */
async function createInPassingProcess(dataDir: string, migrationsFolder: string): Promise<void> {
  const compiled = import.meta.url.endsWith(".js");
  const child = fork(fileURLToPath(new URL(`./pglite-worker.server.${compiled ? "js" : "ts"}`, import.meta.url)), {
    // Not this process's own arguments, which may hold a script (`node -e`); from source, tsx loads TypeScript.
    execArgv: compiled ? [] : ["--import", import.meta.resolve("tsx")],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const send = (request: PgliteRequest) =>
    new Promise<void>((resolve, reject) => {
      child.once("message", (reply: PgliteReply) =>
        "error" in reply ? reject(Object.assign(new Error(reply.error.message), reply.error)) : resolve(),
      );
      void exited.then((code) => reject(new Error(`Creating the embedded database stopped (exit code ${code}).`)));
      child.send(request);
    });
  try {
    await send({ kind: "open", dataDir, migrationsFolder, id: 0 });
    await send({ kind: "close", id: 1 });
  } finally {
    if (child.connected) child.disconnect();
    await exited;
  }
}

/** @public A new thread for one database at a time (the tests' setup lends them out again). */
export function startPgliteThread(): PgliteThread {
  // Compiled (npm start), the worker is its own file beside the server's; from source, tsx loads it.
  const compiled = import.meta.url.endsWith(".js");
  const worker = compiled
    ? new Worker(new URL("./pglite-worker.server.js", import.meta.url))
    : startTypeScriptWorker(new URL("./pglite-worker.server.ts", import.meta.url));
  const waiting = new Map<number, { resolve(rows: unknown[]): void; reject(error: Error): void }>();
  let nextId = 0;
  let failure: Error | undefined;

  const fail = (error: Error) => {
    failure ??= error;
    for (const { reject } of waiting.values()) reject(failure);
    waiting.clear();
  };
  worker.on("error", (error) => fail(new Error(`The embedded database stopped: ${error.message}`)));
  worker.on("exit", (code) => fail(new Error(`The embedded database stopped (exit code ${code}).`)));
  worker.on("message", (reply: PgliteReply) => {
    const caller = waiting.get(reply.id);
    waiting.delete(reply.id);
    if ("error" in reply) caller?.reject(Object.assign(new Error(reply.error.message), reply.error));
    else caller?.resolve(reply.rows);
  });

  return {
    worker,
    get failed() {
      return failure !== undefined;
    },
    send(request) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ ...request, id } as PgliteRequest);
      });
    },
  };
}
