import { rowsOf, type SqlClient } from "./sql-client.server.ts";

/** Moving every row of every table out of one database and into another, as JSON, table by table. */

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const FETCH_ROWS = 1_000;
const INSERT_ROWS = 500;

/**
 * Every row of `tables` as lines `[table index, row as JSON]`, a thousand rows a chunk. Run it inside a
 * REPEATABLE READ transaction, with the facts read in the same one, and every row is of the same moment.
 */
export async function* rowLines(sql: SqlClient, tables: string[]): AsyncIterable<string> {
  for (const [index, table] of tables.entries()) {
    await rowsOf(
      sql,
      `DECLARE table_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM ${quote(table)} t`,
    );
    for (;;) {
      const rows = await rowsOf(sql, `FETCH ${FETCH_ROWS} FROM table_rows`);
      if (rows.length === 0) break;
      yield rows.map((row) => `[${index},${String(row.r)}]\n`).join("");
    }
    await rowsOf(sql, "CLOSE table_rows");
  }
}

/** Lines out of chunks of lines. */
export async function* linesOf(chunks: AsyncIterable<string>): AsyncIterable<string> {
  for await (const chunk of chunks) yield* chunk.split("\n").filter((line) => line !== "");
}

/** Inserts the rows of `lines` (as `rowLines` writes them) into the same tables, 500 rows a statement. */
export async function insertRows(sql: SqlClient, tables: string[], lines: AsyncIterable<string>): Promise<void> {
  let current = -1;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const table = quote(tables[current]!);
    await rowsOf(sql, `INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`, [
      `[${batch.join(",")}]`,
    ]);
    batch = [];
  };
  for await (const line of lines) {
    const comma = line.indexOf(",");
    const index = Number(line.slice(1, comma));
    if (!Number.isInteger(index) || tables[index] === undefined) throw new Error("A row of the backup names no table.");
    if (index !== current) {
      await flush();
      current = index;
    }
    batch.push(line.slice(comma + 1, -1));
    if (batch.length >= INSERT_ROWS) await flush();
  }
  await flush();
}

/** Puts each sequence where it was, so the next number given out follows the restored ones. */
export async function setSequences(sql: SqlClient, sequences: Record<string, number | null>): Promise<void> {
  for (const [name, value] of Object.entries(sequences)) {
    if (value !== null) await rowsOf(sql, "SELECT setval(format('public.%I', $1::text), $2::bigint)", [name, value]);
  }
}
