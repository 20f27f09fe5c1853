import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A dump of an empty embedded database with the project's migrations, for reuse-pglite-threads.ts. */
    migratedDatabase: string;
  }
}

/**
 * Once a run: an in-memory embedded database with the project's migrations, dumped to a file. Every test's
 * in-memory database starts from it, loaded in well under a second, rather than by PostgreSQL's initdb, which
 * takes about two seconds of CPU each time, and the tests open many.
 */
export default async function makeMigratedDatabase(project: TestProject) {
  const database = await PGlite.create({ extensions: { pg_trgm } });
  await migrate(drizzle({ client: database }), { migrationsFolder: "drizzle" });
  const dump = await database.dumpDataDir("none");
  await database.close();
  const path = join(tmpdir(), `plumbline-migrated-database-${process.pid}.tar`);
  await writeFile(path, Buffer.from(await dump.arrayBuffer()));
  project.provide("migratedDatabase", path);
  return () => rm(path, { force: true });
}
