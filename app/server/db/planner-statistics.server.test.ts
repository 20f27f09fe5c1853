import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { openDatabase, type OpenDatabase } from "./db.server.ts";
import { analyzeChangedTables } from "./planner-statistics.server.ts";

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
