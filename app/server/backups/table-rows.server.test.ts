import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postgresForTheFile } from "../../../tooling/test-databases.ts";
import { connectPostgres, openPglite, rowsOf, type SqlClient } from "./sql-client.server.ts";
import { openDatabase, type RunStatement } from "../db/index.server.ts";
import { insertRows, keysetRows } from "./table-rows.server.ts";

/** The rows of a backup file go into the database exactly as they were read, whatever the text holds. */

const rows = [
  { id: 1, name: "Zoë Ångström", note: { said: 'a "quoted" word, a back\\slash' } },
  { id: 2, name: "🚰 leak under the sink\nsecond line", note: { tags: ["ünïcode", "日本語"] } },
  { id: 3, name: "", note: null },
];

const postgres = postgresForTheFile();
/** The backups' own connection to either database, which restores write through. */
const databases = [
  { name: "PGlite", open: () => openPglite("memory://") },
  { name: "PostgreSQL", open: async () => connectPostgres(await postgres().createDatabase()) },
];

describe.each(databases)("a backup's rows loaded into $name", ({ open }) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await open();
    for (const table of ["visitors", "callers"]) {
      await rowsOf(sql, `CREATE TABLE ${table} (id int PRIMARY KEY, name text NOT NULL, note jsonb)`);
    }
  });
  afterAll(() => sql?.close());

  test("keep every character, however the file's text is cut into chunks, and pass over its header and counts", async () => {
    const text = Buffer.from(
      [
        JSON.stringify({ format: "plumbline-backup", tables: ["visitors"] }),
        ...rows.map((row) => `[0,${JSON.stringify(row)}]`),
        JSON.stringify({ counts: { visitors: rows.length } }),
        "",
      ].join("\n"),
    );
    // Chunks of 1, 2, 3… bytes: every multi-byte character and every line is cut somewhere.
    const chunks: Buffer[] = [];
    for (let at = 0, size = 1; at < text.length; at += size, size = (size % 7) + 1) {
      chunks.push(text.subarray(at, at + size));
    }
    async function* cut() {
      yield* chunks;
    }
    await rowsOf(sql, "BEGIN");
    expect(await insertRows(sql, ["visitors"], cut())).toEqual({});
    await rowsOf(sql, "COMMIT");
    expect(await rowsOf(sql, "SELECT id, name, note FROM visitors ORDER BY id")).toEqual(rows);
  });

  test("leave out a row whose unique value an earlier row holds, and say so", async () => {
    async function* lines() {
      yield `[0,${JSON.stringify(rows[0])}]\n[0,${JSON.stringify({ ...rows[1], id: 1 })}]\n`;
      yield `[0,${JSON.stringify(rows[2])}]\n`;
    }
    await rowsOf(sql, "BEGIN");
    expect(await insertRows(sql, ["callers"], lines())).toEqual({ callers: 1 });
    await rowsOf(sql, "COMMIT");
    expect(await rowsOf(sql, "SELECT id, name FROM callers ORDER BY id")).toEqual([
      { id: 1, name: rows[0]!.name },
      { id: 3, name: "" },
    ]);
  });
});

test("an embedded table read a statement at a time by its two-column key gives every row once, each as its line", async () => {
  const database = await openDatabase({ pgliteDataDir: "memory://" });
  try {
    await database.run("create", "CREATE TABLE daily (area text, day int, note text, PRIMARY KEY (area, day))", []);
    // 3,000 rows: more than the first statements read; days 9 and 10 sort as numbers, not as text.
    await database.run(
      "fill",
      `INSERT INTO daily SELECT area, day, CASE WHEN day % 2 = 0 THEN E'a "quote", a\\nnewline 🚰' END
      FROM unnest(ARRAY['north', 'south', 'west']) area, generate_series(1, 1000) day`,
      [],
    );
    let statements = 0;
    const counted: RunStatement = (name, text, params) => {
      statements += 1;
      return database.run(name, text, params);
    };
    let text = "";
    for await (const lines of keysetRows(counted, "daily", 4, {
      columns: ["area", "day"],
      types: ["text", "integer"],
    })) {
      text += lines;
    }
    const lines = text.split("\n");
    expect(lines.pop()).toBe("");
    const rows = lines.map((line) => JSON.parse(line) as [number, { area: string; day: number; note: string | null }]);
    expect(rows.map(([index]) => index)).toEqual(Array(3_000).fill(4));
    expect(new Set(rows.map(([, row]) => `${row.area} ${row.day}`)).size).toBe(3_000);
    expect(rows.find(([, row]) => row.area === "west" && row.day === 10)?.[1].note).toBe('a "quote", a\nnewline 🚰');
    expect(statements).toBeGreaterThan(1);
  } finally {
    await database.close();
  }
});
