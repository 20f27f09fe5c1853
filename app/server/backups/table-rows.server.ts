import { setTimeout } from "node:timers/promises";
import { quoteIdentifier as quote, type RunStatement } from "../db/index.server.ts";
import { cascadingReferences, type PrimaryKey } from "./database-facts.server.ts";
import { rowsOf, type SqlClient } from "./sql-client.server.ts";

/** Moving every row of every table out of one database and into another, as JSON lines `[table index, row]`. */

const FETCH_ROWS = 1_000;
const INSERT_ROWS = 2_000;

const lines = (index: number, rows: Record<string, unknown>[]) =>
  rows.map((row) => `[${index},${String(row.r)}]\n`).join("");

/**
 * A table's rows through a cursor, a thousand a chunk. Run it inside a REPEATABLE READ transaction, and every table
 * read in it is of the same moment. `pausing`: after each chunk the read waits as long as its fetch took, so that
 * the server's thread and the machine's cores are free for the site at least half the time (a backup made while the
 * site serves; on two cores lead intake waited for the read at full speed).
 */
export async function* cursorRows(
  sql: SqlClient,
  table: string,
  index: number,
  { pausing = false } = {},
): AsyncIterable<string> {
  await rowsOf(sql, `DECLARE table_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM ${quote(table)} t`);
  for (;;) {
    const startedAt = performance.now();
    const rows = await rowsOf(sql, `FETCH ${FETCH_ROWS} FROM table_rows`);
    if (rows.length === 0) break;
    const took = performance.now() - startedAt;
    yield lines(index, rows);
    if (pausing) await setTimeout(took);
  }
  await rowsOf(sql, "CLOSE table_rows");
}

/** A keyset statement's rows as one text, how many they are, and the last one's key (all null for none). */
type Batch = { rows: string | null; count: number; last: string[] | null };

/**
 * Each statement of a keyset read is kept near this long: on the embedded database, lead intake waits behind it.
 * A statement that took less reads twice the rows next time, one that took more half (within these bounds). After
 * each one the read waits as long as it took, so the database is free for the site at least half the time.
 */
const STATEMENT_MS = 5;
const KEYSET_ROWS = { least: 50, first: 500, most: 5_000 };

/**
 * A table's rows in its primary key's order, each statement reading the next rows after the last one read, as
 * the site's own statements run between them (the embedded database has one connection, so a transaction over the
 * whole read would hold up everyone). Every row is read once; a row added behind the read is left for the next
 * backup. A table without a primary key is read in one statement.
 */
export async function* keysetRows(
  run: RunStatement,
  table: string,
  index: number,
  key: PrimaryKey | undefined,
): AsyncIterable<string> {
  if (!key) {
    yield lines(index, await run(`backup-${table}`, `SELECT row_to_json(t)::text AS r FROM ${quote(table)} t`, []));
    return;
  }
  const columns = key.columns.map(quote);
  // A statement's rows come as one text, the lines between the first's `[index,` and the last's `]\n` joined by
  // `$2`, with the last row's key: on the embedded database a result row for each table row cost a quarter of the
  // read (BENCHMARKS, "The embedded backup's rows a statement a text").
  const statement = (after: string) => `WITH batch AS (
      SELECT row_to_json(t)::text AS r, ${columns.map((column, at) => `${column} AS k${at}`).join(", ")}
      FROM ${quote(table)} t ${after} ORDER BY ${columns.join(", ")} LIMIT $1)
    SELECT string_agg(r, $2) AS rows, count(*)::int AS count,
      (SELECT ARRAY[${columns.map((_, at) => `k${at}::text`).join(", ")}] FROM batch
        ORDER BY ${columns.map((_, at) => `k${at} DESC`).join(", ")} LIMIT 1) AS last
    FROM batch`;
  const after = `WHERE (${columns.join(", ")}) > (${key.types.map((type, at) => `$${at + 3}::${type}`).join(", ")})`;
  const separator = `]\n[${index},`;
  let limit = KEYSET_ROWS.first;
  let last: string[] | undefined;
  for (;;) {
    const startedAt = performance.now();
    const [batch] = last
      ? await run<Batch>(`backup-${table}-after`, statement(after), [limit, separator, ...last])
      : await run<Batch>(`backup-${table}-first`, statement(""), [limit, separator]);
    const took = performance.now() - startedAt;
    await setTimeout(took);
    if (!batch?.rows || !batch.last) return;
    yield `[${index},${batch.rows}]\n`;
    if (batch.count < limit) return;
    last = batch.last;
    limit = Math.round(
      Math.min(
        KEYSET_ROWS.most,
        Math.max(KEYSET_ROWS.least, took < STATEMENT_MS ? limit * 2 : took > 2 * STATEMENT_MS ? limit / 2 : limit),
      ),
    );
  }
}

/** PostgreSQL's error code for a value a unique index already holds. */
const UNIQUE_VIOLATION = "23505";

/** The bytes a row's line is read by. */
const BYTE = { newline: 0x0a, comma: 0x2c, openBracket: 0x5b, closeBracket: 0x5d, zero: 0x30, nine: 0x39 };

/**
 * The rows of one statement as one JSON array, written as bytes into a buffer used again for the next statement.
 * The rows go to the database in binary form, the bytes as read: sent as a string, the embedded database's driver
 * measured it a character at a time and encoded it: 24 s of the 137 s a busy year's rows took to load.
 */
function rowsArray() {
  let bytes = Buffer.allocUnsafe(1 << 20);
  let length = 0;
  let rows = 0;
  return {
    get rows() {
      return rows;
    },
    add(source: Buffer, start: number, end: number) {
      const needed = length + end - start + 2;
      if (needed > bytes.length) {
        const larger = Buffer.allocUnsafe(Math.max(needed, bytes.length * 2));
        bytes.copy(larger, 0, 0, length);
        bytes = larger;
      }
      bytes[length] = rows === 0 ? BYTE.openBracket : BYTE.comma;
      length += 1 + source.copy(bytes, length + 1, start, end);
      rows += 1;
    },
    /** The array so far, valid until `clear`. */
    bytes() {
      bytes[length] = BYTE.closeBracket;
      return bytes.subarray(0, length + 1);
    },
    clear() {
      length = 0;
      rows = 0;
    },
  };
}

/**
 * Inserts the rows of `text` (lines as the readers above write them, `[table index, row]`, in chunks cut anywhere)
 * into the same tables, 2,000 rows a statement, and returns, per table, the rows left out because they held a
 * unique value that another row read later took over (the embedded database's backup is read a statement at a time
 * while the site runs: a number hold ended and another began, say); the first row read keeps it. A statement is a
 * plain insert; only one that meets such a value is made again, leaving out the rows whose values are taken. Lines
 * that are not rows (a backup file's header and counts, which start with `{`) are passed over. Run it inside a
 * transaction (the restore's one): the statement made again goes back to a savepoint taken before the first.
 */
export async function insertRows(
  sql: SqlClient,
  tables: string[],
  text: AsyncIterable<Buffer | string>,
): Promise<Record<string, number>> {
  const leftOut: Record<string, number> = {};
  let current = -1;
  const batch = rowsArray();
  const flush = async () => {
    if (batch.rows === 0) return;
    const name = tables[current]!;
    const table = quote(name);
    const rows = `SELECT r.* FROM json_populate_recordset(NULL::${table}, $1::json) r`;
    const values = [batch.bytes()];
    try {
      await rowsOf(sql, "SAVEPOINT plain_insert");
      await rowsOf(sql, `INSERT INTO ${table} ${rows}`, values);
      await rowsOf(sql, "RELEASE SAVEPOINT plain_insert");
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await rowsOf(sql, "ROLLBACK TO SAVEPOINT plain_insert");
      const [inserted] = await rowsOf(
        sql,
        `WITH inserted AS (INSERT INTO ${table} ${rows} ON CONFLICT DO NOTHING RETURNING 1)
        SELECT count(*)::int AS n FROM inserted`,
        values,
      );
      const missing = batch.rows - Number(inserted?.n);
      if (missing > 0) leftOut[name] = (leftOut[name] ?? 0) + missing;
    }
    batch.clear();
  };
  /** The line `line[start, end)`: its row into the batch, the batch sent when full or when the table changes. */
  const addLine = async (line: Buffer, start: number, end: number) => {
    if (line[start] !== BYTE.openBracket) return;
    let index = 0;
    let at = start + 1;
    for (; at < end && line[at]! >= BYTE.zero && line[at]! <= BYTE.nine; at += 1) {
      index = index * 10 + line[at]! - BYTE.zero;
    }
    if (at === start + 1 || line[at] !== BYTE.comma || tables[index] === undefined) {
      throw new Error("A row of the backup names no table.");
    }
    if (index !== current) {
      await flush();
      current = index;
    }
    batch.add(line, at + 1, end - 1);
    if (batch.rows >= INSERT_ROWS) await flush();
  };
  let partial: Buffer | undefined;
  for await (const chunk of text) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    let end = bytes.indexOf(BYTE.newline);
    if (partial && end !== -1) {
      const line = Buffer.concat([partial, bytes.subarray(0, end)]);
      partial = undefined;
      await addLine(line, 0, line.length);
      start = end + 1;
      end = bytes.indexOf(BYTE.newline, start);
    }
    for (; end !== -1; start = end + 1, end = bytes.indexOf(BYTE.newline, start)) await addLine(bytes, start, end);
    if (start < bytes.length) partial = partial ? Buffer.concat([partial, bytes]) : bytes.subarray(start);
  }
  if (partial) await addLine(partial, 0, partial.length);
  await flush();
  return leftOut;
}

/**
 * Drops the tables' foreign keys and returns what adds them again, each checked over all its rows at once, which
 * is faster than checking each row as it loads. Before they are added, the rows whose parent of a
 * cascading foreign key is missing are deleted, table by table in `tables`' order (so the rows of a row deleted
 * this way go too), and returned per table as left out: a backup of the embedded database read while the site ran
 * can hold a row whose parent was deleted (with it, as the key says) after the row was read. A row missing the
 * parent of any other foreign key fails the restore as it did when loaded. Run it once the migrations have made the
 * tables.
 */
export async function withoutForeignKeys(
  sql: SqlClient,
  tables: string[],
): Promise<() => Promise<Record<string, number>>> {
  const keys = (await rowsOf(
    sql,
    `SELECT c.relname::text AS "table", f.conname::text AS name, pg_get_constraintdef(f.oid) AS definition
      FROM pg_constraint f
      JOIN pg_class c ON c.oid = f.conrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE f.contype = 'f' AND n.nspname = 'public'`,
  )) as { table: string; name: string; definition: string }[];
  const references = await cascadingReferences((text) => rowsOf(sql, text));
  for (const { table, name } of keys) await rowsOf(sql, `ALTER TABLE ${quote(table)} DROP CONSTRAINT ${quote(name)}`);
  return async () => {
    const orphans: Record<string, number> = {};
    for (const table of tables) {
      for (const reference of references.get(table) ?? []) {
        const matches = reference.columns
          .map((column, at) => `p.${quote(reference.parentColumns[at]!)} = r.${quote(column)}`)
          .join(" AND ");
        const set = reference.columns.map((column) => `r.${quote(column)} IS NOT NULL`).join(" AND ");
        const [deleted] = await rowsOf(
          sql,
          `WITH deleted AS (DELETE FROM ${quote(table)} r
            WHERE ${set} AND NOT EXISTS (SELECT 1 FROM ${quote(reference.parent)} p WHERE ${matches}) RETURNING 1)
          SELECT count(*)::int AS n FROM deleted`,
        );
        if (Number(deleted?.n) > 0) orphans[table] = (orphans[table] ?? 0) + Number(deleted?.n);
      }
    }
    for (const { table, name, definition } of keys) {
      await rowsOf(sql, `ALTER TABLE ${quote(table)} ADD CONSTRAINT ${quote(name)} ${definition}`);
    }
    return orphans;
  };
}

/**
 * Drops the tables' indexes that are neither keys nor unique and returns what builds them again: a table's rows load
 * several times faster without them (above all the trigram ones), and an index built over all its rows at once is
 * built faster than row by row. Unique ones stay, for the insert's conflicts. Run it once the migrations have made
 * the tables.
 */
export async function withoutIndexes(sql: SqlClient): Promise<() => Promise<void>> {
  const indexes = (await rowsOf(
    sql,
    `SELECT c.relname::text AS name, pg_get_indexdef(i.indexrelid) AS definition
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT i.indisunique AND NOT i.indisprimary`,
  )) as { name: string; definition: string }[];
  for (const { name } of indexes) await rowsOf(sql, `DROP INDEX ${quote(name)}`);
  return async () => {
    for (const { definition } of indexes) await rowsOf(sql, definition);
  };
}

/**
 * Turns off the tables' own triggers (not the ones that keep foreign keys) and returns what turns them on again. Those
 * triggers keep the derived tables, which a backup leaves out and their owner makes again from the restored rows;
 * fired for every row loaded, they would make a restore slow. Run it once the migrations have made the tables.
 */
export async function withoutTriggers(sql: SqlClient): Promise<() => Promise<void>> {
  const tables = (await rowsOf(
    sql,
    `SELECT DISTINCT c.relname::text AS name
      FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT t.tgisinternal`,
  )) as { name: string }[];
  for (const { name } of tables) await rowsOf(sql, `ALTER TABLE ${quote(name)} DISABLE TRIGGER USER`);
  return async () => {
    for (const { name } of tables) await rowsOf(sql, `ALTER TABLE ${quote(name)} ENABLE TRIGGER USER`);
  };
}

/** Puts each sequence where it was, so the next number given out follows the restored ones. */
export async function setSequences(sql: SqlClient, sequences: Record<string, number | null>): Promise<void> {
  for (const [name, value] of Object.entries(sequences)) {
    if (value !== null) await rowsOf(sql, "SELECT setval(format('public.%I', $1::text), $2::bigint)", [name, value]);
  }
}
