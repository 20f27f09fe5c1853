import { startEmbeddedPostgres } from "../../tooling/local-services.ts";

/**
 * One PostgreSQL server for the whole run, unless TEST_DATABASE_URL names one already: the files that test on
 * PostgreSQL each make their own databases in it (startPostgres), rather than each starting a cluster of its own.
 * The workers start after this and inherit the variable.
 */
export default async function startSharedPostgres() {
  if (process.env.TEST_DATABASE_URL) return;
  const postgres = await startEmbeddedPostgres();
  process.env.TEST_DATABASE_URL = postgres.adminUrl;
  return async () => {
    delete process.env.TEST_DATABASE_URL;
    await postgres.stop();
  };
}
