import { readFile } from "node:fs/promises";
import { inject, vi } from "vitest";
import type { PgliteThread } from "~/server/db/pglite-thread.server.ts";

/**
 * Tests open many embedded databases: each worker reuses the threads of those its files closed (it runs its files in
 * one process), since a new thread loads and warms PGlite's WebAssembly again, which takes seconds on this machine.
 * A thread that failed is not reused. A new database starts from the run's migrated one (migrated-database.ts)
 * instead of being created.
 */
vi.mock("~/server/db/pglite-thread.server.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/server/db/pglite-thread.server.ts")>();
  const idle: PgliteThread[] = [];
  const reused = {
    take: () => idle.pop() ?? actual.startPgliteThread(),
    give(thread: PgliteThread) {
      // An idle thread does not keep the test process alive.
      thread.worker.unref();
      if (thread.failed) void thread.worker.terminate();
      else idle.push(thread);
    },
  };
  let migrated: Promise<ArrayBuffer> | undefined;
  const migratedDatabase = () =>
    (migrated ??= readFile(inject("migratedDatabase")).then((bytes) =>
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    ));
  return {
    ...actual,
    // A new database, in memory or in a folder, starts from the dump. How a server creates a folder without one is
    // tested by pglite-thread.server.test.ts and private-data.test.ts (which use the module itself).
    openPgliteThread: async (dataDir: string, migrationsFolder: string) =>
      actual.openPgliteThread(dataDir, migrationsFolder, reused, await migratedDatabase()),
  };
});
