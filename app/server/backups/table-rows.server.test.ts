import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postgresForTheFile } from "../../../tooling/test-databases.ts";
import { connectPostgres, openPglite, rowsOf, type SqlClient } from "./sql-client.server.ts";
import { insertRows } from "./table-rows.server.ts";

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
    expect(await insertRows(sql, ["visitors"], cut())).toEqual({});
    expect(await rowsOf(sql, "SELECT id, name, note FROM visitors ORDER BY id")).toEqual(rows);
  });

  test("leave out a row whose unique value an earlier row holds, and say so", async () => {
    async function* lines() {
      yield `[0,${JSON.stringify(rows[0])}]\n[0,${JSON.stringify({ ...rows[1], id: 1 })}]\n`;
      yield `[0,${JSON.stringify(rows[2])}]\n`;
    }
    expect(await insertRows(sql, ["callers"], lines())).toEqual({ callers: 1 });
    expect(await rowsOf(sql, "SELECT id, name FROM callers ORDER BY id")).toEqual([
      { id: 1, name: rows[0]!.name },
      { id: 3, name: "" },
    ]);
  });
});
