import { openDatabase } from "~/server/db/index.server.ts";

/**
 * Makes `pgliteDataDir` an empty database with the project's migrations, from the run's migrated database
 * (tests/setup/reuse-pglite-threads.ts), in the test's own process. A server started as a process on a folder that
 * does not exist creates it first, running PostgreSQL's initdb and every migration: about 10 s of CPU each time.
 * Tests of something else start their servers on this instead; how a server creates its folder has tests of its own.
 */
export async function makeMigratedFolder(pgliteDataDir: string): Promise<void> {
  const database = await openDatabase({ pgliteDataDir });
  await database.close();
}
