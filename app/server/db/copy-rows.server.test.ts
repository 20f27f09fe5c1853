import pg from "pg";
import { beforeAll, describe, expect, test } from "vitest";
import { postgresForTheFile } from "../../../tooling/test-databases.ts";
import { binaryCopyRows, postgresStreamRows, type RowBatch } from "./copy-rows.server.ts";

/** COPY's binary format written by hand: the signature, no flags, no header extension, the rows, the end. */
function copyBytes(rows: (string | null)[][]): Buffer {
  const parts = [Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)];
  for (const row of rows) {
    const columns = Buffer.alloc(2);
    columns.writeInt16BE(row.length);
    parts.push(columns);
    for (const value of row) {
      const length = Buffer.alloc(4);
      const bytes = value === null ? Buffer.alloc(0) : Buffer.from(value);
      length.writeInt32BE(value === null ? -1 : bytes.length);
      parts.push(length, bytes);
    }
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

const asText = ({ bytes, rows, columns, starts, ends }: RowBatch) =>
  Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => {
      const at = row * columns + column;
      return starts[at] === -1 ? null : bytes.toString("utf8", starts[at], ends[at]);
    }),
  );

describe("COPY's binary rows", () => {
  const rows = [
    ["Ann", null, "Zoë – 東京"],
    ["", "two\r\nlines", "x"],
    ["last", "row", null],
  ];
  const bytes = copyBytes(rows);

  test("are read whole however the bytes are cut", () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const reader = binaryCopyRows();
      const read = [...asText(reader.next(bytes.subarray(0, cut))), ...asText(reader.next(bytes.subarray(cut)))];
      reader.end();
      expect(read).toEqual(rows);
    }
  });

  test("that stop before COPY's end are an error, not a shorter export", () => {
    const reader = binaryCopyRows();
    reader.next(bytes.subarray(0, bytes.length - 2));
    expect(() => reader.end()).toThrow("COPY's rows ended early.");
  });
});

describe("PostgreSQL's rows as a stream", () => {
  const postgres = postgresForTheFile();
  let url: string;
  beforeAll(async () => {
    url = await postgres().createDatabase();
  });

  const copiesRunning = async () => {
    const client = new pg.Client(url);
    await client.connect();
    try {
      const { rows } = await client.query<{ copies: number }>(
        "SELECT count(*)::int AS copies FROM pg_stat_activity WHERE query LIKE 'COPY (%' AND pid <> pg_backend_pid()",
      );
      return rows[0]!.copies;
    } finally {
      await client.end();
    }
  };

  test("are every row in order, in batches", async () => {
    const read: (string | null)[][] = [];
    let batches = 0;
    for await (const batch of postgresStreamRows(url)(
      "SELECT n::text, CASE WHEN n % 2 = 0 THEN 'é' || n END FROM generate_series(1, 20000) n",
    )) {
      batches++;
      read.push(...asText(batch));
    }
    expect(read).toHaveLength(20_000);
    expect(read[0]).toEqual(["1", null]);
    expect(read[19_999]).toEqual(["20000", "é20000"]);
    expect(batches).toBeGreaterThan(1);
  });

  test("end their statement when the reader stops early", async () => {
    for await (const batch of postgresStreamRows(url)("SELECT repeat('x', 1000) FROM generate_series(1, 1000000)")) {
      expect(batch.rows).toBeGreaterThan(0);
      break;
    }
    await expect.poll(copiesRunning).toBe(0);
  });

  test("end their statement when the reader takes no rows for longer than an idle reader may", async () => {
    const rows = postgresStreamRows(url, 1_000)("SELECT repeat('x', 1000) FROM generate_series(1, 1000000)");
    const reader = rows[Symbol.asyncIterator]();
    expect((await reader.next()).done).toBe(false);
    await expect.poll(copiesRunning, { timeout: 5_000 }).toBe(0);
    // The reader coming back finds the rows ended, not a shorter export.
    await expect(
      (async () => {
        for (;;) if ((await reader.next()).done) break;
      })(),
    ).rejects.toThrow();
  });

  test("are read by one backend, with no parallel workers, even where the planner would start them", async () => {
    // A database whose planner starts parallel workers for any table it reads whole.
    const eager = await postgres().createDatabase();
    const setUp = new pg.Client(eager);
    await setUp.connect();
    const name = (await setUp.query<{ name: string }>("SELECT current_database() AS name")).rows[0]!.name;
    for (const setting of ["parallel_setup_cost = 0", "parallel_tuple_cost = 0", "min_parallel_table_scan_size = 0"]) {
      await setUp.query(`ALTER DATABASE "${name}" SET ${setting}`);
    }
    await setUp.query("CREATE TABLE numbers AS SELECT n FROM generate_series(1, 200000) n");
    await setUp.query("ANALYZE numbers");
    const parallelWorkers = async () =>
      (
        await setUp.query<{ workers: number }>(
          "SELECT count(*)::int AS workers FROM pg_stat_activity WHERE backend_type = 'parallel worker'",
        )
      ).rows[0]!.workers;
    // The reader holds the stream after its first batch, while the statement waits to send the rest.
    const reader = postgresStreamRows(eager)("SELECT n::text FROM numbers WHERE n % 7 <> 0")[Symbol.asyncIterator]();
    try {
      expect((await reader.next()).done).toBe(false);
      expect(await parallelWorkers()).toBe(0);
    } finally {
      await reader.return?.();
      await setUp.end();
    }
  });

  test("reject with the database's error", async () => {
    const read = async () => {
      for await (const batch of postgresStreamRows(url)("SELECT 1 / 0")) expect(batch).toBeUndefined();
    };
    await expect(read()).rejects.toThrow("division by zero");
  });
});
