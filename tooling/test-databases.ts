import { afterAll, beforeAll } from "vitest";
import { openDatabase } from "../app/server/db/index.server.ts";
import { startPostgres, type TestPostgres } from "./local-services.ts";

/** One PostgreSQL server for a test file: started before its tests, stopped after them. */
export function postgresForTheFile(): () => TestPostgres {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(() => postgres?.stop());
  return () => postgres;
}

/**
 * A test file's set-up for running the same tests of the data layer on both databases, without a server, for
 * `describe.each`: one embedded PostgreSQL server for the file, and a way to open a new, empty database of either
 * kind (the embedded one in memory).
 */
export function databasesToOpen() {
  const postgres = postgresForTheFile();
  return [
    { name: "PGlite", open: () => openDatabase({ pgliteDataDir: "memory://" }) },
    {
      name: "PostgreSQL",
      open: async () => openDatabase({ databaseUrl: await postgres().createDatabase(), pgliteDataDir: "unused" }),
    },
  ];
}
