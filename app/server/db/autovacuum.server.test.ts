import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { openDatabase, type OpenDatabase } from "./db.server.ts";
import { analyzeChangedTables, vacuumChangedTables } from "./autovacuum.server.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let database: OpenDatabase;
beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
});
afterAll(() => database?.close());

const statisticsOf = async (table: string) =>
  (
    await database.run<{ columns: number }>(
      "statistics-of",
      "SELECT count(*)::int AS columns FROM pg_stats WHERE tablename = $1",
      [table],
    )
  )[0]!.columns;

test("the embedded database's tables get planner statistics once they hold rows, and again once a tenth has changed", async () => {
  const run = database.run;
  await run("create", "CREATE TABLE jobs (id int PRIMARY KEY, kind text NOT NULL)", []);
  await run("index", "CREATE INDEX jobs_kind ON jobs (kind)", []);
  // The migrations' own rows (the counts' version) are analyzed once; an empty table never is.
  await analyzeChangedTables(run);
  expect(await analyzeChangedTables(run)).toEqual([]);

  await run("fill", "INSERT INTO jobs SELECT g, 'leak-' || (g % 7) FROM generate_series(1, 2000) g", []);
  expect(await statisticsOf("jobs")).toBe(0);
  expect(await analyzeChangedTables(run)).toEqual(["jobs"]);
  expect(await statisticsOf("jobs")).toBe(2);

  expect(await analyzeChangedTables(run)).toEqual([]);
  // 50 rows and a tenth of the table: 250 of 2,000.
  await run("few", "UPDATE jobs SET kind = 'drain' WHERE id <= 200", []);
  expect(await analyzeChangedTables(run)).toEqual([]);
  await run("more", "UPDATE jobs SET kind = 'drain' WHERE id > 1900", []);
  expect(await analyzeChangedTables(run)).toEqual(["jobs"]);
  expect(await analyzeChangedTables(run)).toEqual([]);
});

test("a table emptied and analyzed is left alone until rows change again", async () => {
  const run = database.run;
  await run("create-queue", "CREATE TABLE queue (id int PRIMARY KEY)", []);
  await run("fill-queue", "INSERT INTO queue SELECT generate_series(1, 500)", []);
  await run("empty-queue", "DELETE FROM queue", []);
  expect(await analyzeChangedTables(run)).toEqual(["queue"]);
  expect(await analyzeChangedTables(run)).toEqual([]);
});

const sizeOf = async (table: string) =>
  (await database.run<{ bytes: number }>("size-of", "SELECT pg_relation_size($1)::int AS bytes", [table]))[0]!.bytes;

test("the space of deleted rows is used again once 2% of a table has changed and housekeeping has vacuumed it", async () => {
  const run = database.run;
  await run("create-visits", "CREATE TABLE visits (id int PRIMARY KEY, page text NOT NULL)", []);
  const fill = "INSERT INTO visits SELECT g, repeat('/drain-services', 16) FROM generate_series(1, 20000) g";
  await run("fill-visits", fill, []);
  // Inserted rows are vacuumed too, once there are more than 1,000 and 2% of the table.
  expect(await vacuumChangedTables(run)).toContain("visits");
  expect(await vacuumChangedTables(run)).not.toContain("visits");
  const filled = await sizeOf("visits");

  // Fewer dead rows than 50 and 2% of the table: 400 of 20,000.
  await run("update-visits", "UPDATE visits SET page = '/plumbers' WHERE id <= 400", []);
  expect(await vacuumChangedTables(run)).not.toContain("visits");
  await run("purge-visits", "DELETE FROM visits", []);
  expect(await vacuumChangedTables(run)).toContain("visits");

  // The rows of a second year take the first year's space, which without a vacuum would never be used again.
  await run("fill-visits-again", fill, []);
  expect(await sizeOf("visits")).toBe(filled);
});
