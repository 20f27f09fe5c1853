import { and, asc, desc, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { executeRows, type Database } from "./db.server.ts";

/**
 * Console lists, newest first, a page at a time by keyset: a page starts after the row its link names (`before`:
 * the older rows; `after`: the newer ones), found through the list's index on its time, so the thousandth page
 * costs what the first does. None: the newest page.
 */
export interface ListCursor {
  before?: string;
  after?: string;
}

interface KeysetList {
  table: PgTable;
  time: AnyPgColumn;
  id: AnyPgColumn;
}

/** The condition and order that read one page (one row more than `size`, to know whether there is another). */
export function keysetQuery({ table, time, id }: KeysetList, where: SQL | undefined, cursor: ListCursor) {
  const cursorId = cursor.before ?? cursor.after;
  const newer = cursor.after !== undefined;
  const from =
    cursorId === undefined ? undefined : sql`(SELECT ${time}, ${id} FROM ${table} WHERE ${id} = ${cursorId}::uuid)`;
  return {
    where: and(where, from ? (newer ? sql`(${time}, ${id}) > ${from}` : sql`(${time}, ${id}) < ${from}`) : undefined),
    orderBy: newer ? [asc(time), asc(id)] : [desc(time), desc(id)],
    newer,
  };
}

/**
 * One page of rows read newest first or, for newer rows, oldest first: the page newest first, and whether there are
 * newer and older rows than it. A page of newer rows that is not full is the newest page: `readNewest` reads it.
 */
export async function keysetPage<Row>(
  rows: Row[],
  size: number,
  cursor: ListCursor,
  readNewest: () => Promise<Row[]>,
): Promise<{ rows: Row[]; newer: boolean; older: boolean }> {
  if (cursor.after !== undefined) {
    if (rows.length <= size) return keysetPage(await readNewest(), size, {}, readNewest);
    return { rows: rows.slice(0, size).reverse(), newer: true, older: true };
  }
  return { rows: rows.slice(0, size), newer: cursor.before !== undefined, older: rows.length > size };
}

/**
 * A list's count and a search's matches are read by a statement planned to read every matching row, whichever way is
 * quickest for all of them (a materialized WITH), which stops at the limit. Planned for the first rows only, it chose
 * on the planner's sampled guess at how common the matches are, and a guess too high read the table in order, far
 * past where it guessed the limit would be reached: counting a name one lead in fifty, guessed at one in twenty-five,
 * took 105 ms instead of 8 in a busy year on the embedded database.
 */
const everyMatch = (table: PgTable, selected: SQL, where: SQL | undefined, limit: number) =>
  sql`WITH matching AS MATERIALIZED (SELECT ${selected} AS selected FROM ${table} ${where ? sql`WHERE ${where}` : sql``})
    SELECT selected FROM matching LIMIT ${limit + 1}`;

/** How many rows match, counting no further than `limit` + 1 (shown as "More than 10,000"). */
export async function boundedCount(
  db: Database,
  table: PgTable,
  where: SQL | undefined,
  limit: number,
): Promise<number> {
  const [counted] = await executeRows<{ total: number }>(
    db,
    sql`SELECT count(*)::int AS total FROM (${everyMatch(table, sql`1`, where, limit)}) AS counted`,
  );
  return counted!.total;
}

/** The ids of the rows that match, no more than `limit` + 1 of them. */
export async function boundedMatches(
  db: Database,
  table: PgTable,
  id: AnyPgColumn,
  where: SQL | undefined,
  limit: number,
): Promise<string[]> {
  const rows = await executeRows<{ selected: string }>(db, everyMatch(table, sql`${id}::text`, where, limit));
  return rows.map((row) => row.selected);
}

/**
 * Every row of a read made a batch at a time, in the read's order: each batch is read after the last row of the one
 * before (`cursorOf` names it), and the next batch is read while the caller handles this one, so the database and the
 * server work side by side and no statement holds the embedded database for long. `size` is the rows each batch
 * reads, or what to read next, asked just before each statement; a batch shorter than it asked for is the last.
 */
export async function* batchesAfter<Row, Cursor>(
  read: (after: Cursor | undefined, size: number) => Promise<Row[]>,
  size: number | (() => number),
  cursorOf: (last: Row) => Cursor,
): AsyncGenerator<Row[]> {
  const nextSize = typeof size === "number" ? () => size : size;
  let asked = nextSize();
  let batch = read(undefined, asked);
  for (;;) {
    const rows = await batch;
    const more = rows.length === asked;
    if (more) {
      asked = nextSize();
      batch = read(cursorOf(rows.at(-1)!), asked);
      // A caller that stops while the next batch is read leaves that statement unawaited: its failure is no one's.
      batch.catch(() => undefined);
    }
    if (rows.length > 0) yield rows;
    if (!more) return;
  }
}
