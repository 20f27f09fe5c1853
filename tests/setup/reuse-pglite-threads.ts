import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import type { PgliteThread } from "~/server/db/pglite-thread.server.ts";
import { makeMigratedFolder } from "../../tooling/migrated-database.ts";

/**
 * Tests open many embedded databases: each worker reuses the threads of those its files closed (it runs its files in
 * one process), since a new thread loads and warms PGlite's WebAssembly again, which takes seconds on this machine.
 * A thread that failed is not reused.
 *
 * A new database, in memory or in a folder, is not created: the migrated database (tooling/migrated-database.ts) is
 * extracted into its folder, and a database "in memory" gets a folder of its own, deleted when it closes. Loading the
 * dump into PGlite's memory took 1.4 s and 1.9 s of CPU a database; extracting it and opening the folder, 0.6 s and
 * 1 s. How a server creates a folder without it is tested by pglite-thread.server.test.ts and private-data.test.ts
 * (which use the module itself).
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
  // The folders of databases "in memory" that a test left open go when the worker's process ends.
  const inMemoryFolders = mkdtempSync(join(tmpdir(), "plumbline-test-databases-"));
  process.once("exit", () => rmSync(inMemoryFolders, { recursive: true, force: true }));

  return {
    ...actual,
    openPgliteThread: async (dataDir: string, migrationsFolder: string) => {
      if (!dataDir.startsWith("memory://")) {
        if (!existsSync(join(dataDir, "PG_VERSION"))) await makeMigratedFolder(dataDir);
        return actual.openPgliteThread(dataDir, migrationsFolder, reused);
      }
      const folder = await mkdtemp(join(inMemoryFolders, "database-"));
      await makeMigratedFolder(folder);
      const connection = await actual.openPgliteThread(folder, migrationsFolder, reused).catch(async (error) => {
        await rm(folder, { recursive: true, force: true });
        throw error;
      });
      return {
        request: connection.request,
        async close() {
          await connection.close();
          await rm(folder, { recursive: true, force: true });
        },
      };
    },
  };
});
