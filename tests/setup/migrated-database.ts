import type { TestProject } from "vitest/node";
import { migratedDatabaseDump } from "../../tooling/migrated-database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A dump of an empty embedded database with the project's migrations, for reuse-pglite-threads.ts. */
    migratedDatabase: string;
  }
}

/**
 * Every test's new embedded database starts from one dump of an empty database with the project's migrations,
 * loaded in well under a second, rather than by PostgreSQL's initdb, which takes about two seconds of CPU each
 * time, and the tests open many.
 */
export default async function provideMigratedDatabase(project: TestProject) {
  project.provide("migratedDatabase", await migratedDatabaseDump());
}
