import { migratedDatabaseDump } from "../../tooling/migrated-database.ts";

/**
 * The migrated database every test's new embedded database is extracted from (reuse-pglite-threads.ts), made before
 * the workers start if this version of the migrations has none yet, rather than by both workers at once.
 */
export default async function makeMigratedDatabase() {
  await migratedDatabaseDump();
}
