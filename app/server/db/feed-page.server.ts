import { and, asc, desc, eq, gte, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "./db.server.ts";

/**
 * The read API's pages of a table, by keyset on (time, id): newest first, back in time from a row ("older"), or
 * oldest first, forward from a row ("newer", for a tool asking for everything after what it has). A row's place is
 * its time as the database writes it (`::text`, to the microsecond: a JavaScript `Date` keeps milliseconds, and
 * rows within one millisecond would be skipped) and its id.
 */

export interface FeedPlace {
  at: string;
  id: string;
}

export interface FeedRequest {
  direction: "older" | "newer";
  /** The row to read from (not included): a place, or an id to look up; none reads from the newest (older) or the first (newer). */
  from: FeedPlace | { id: string } | null;
  /** Only rows after this instant, compared to the millisecond (as the API writes times). */
  since: Date | null;
  limit: number;
  /**
   * Newer rows only from before this many milliseconds ago. A row's time is when its statement started, so a row
   * still committing can have an earlier time than one already read; no statement runs longer than this, so no row
   * appears behind a place a tool already has.
   */
  settleMs: number;
}

export interface FeedTable {
  table: PgTable;
  time: AnyPgColumn;
  id: AnyPgColumn;
}

/** A page's rows in its own order, whether more follow, and the place it read from (null: the start). */
export interface FeedPage<Row> {
  rows: Row[];
  more: boolean;
  from: FeedPlace | null;
}

/**
 * Reads one page: `read` runs the table's own select with the condition, order and row count given (one row more
 * than the page, to know whether more follow). Null when `from` names an id no row has.
 */
export async function readFeedPage<Row>(
  db: Database,
  { table, time, id }: FeedTable,
  request: FeedRequest,
  read: (where: SQL | undefined, orderBy: SQL[], limit: number) => Promise<Row[]>,
): Promise<FeedPage<Row> | null> {
  let from: FeedPlace | null = null;
  if (request.from && "at" in request.from) from = request.from;
  else if (request.from) {
    const [found] = await db
      .select({ at: sql<string>`${time}::text`, id: sql<string>`${id}::text` })
      .from(table)
      .where(eq(id, request.from.id));
    if (!found) return null;
    from = found;
  }
  const newer = request.direction === "newer";
  const conditions: (SQL | undefined)[] = [];
  // Rows whose time, to the millisecond, is after `since`: from the millisecond after it.
  if (request.since) conditions.push(gte(time, new Date(request.since.getTime() + 1)));
  if (from) {
    const place = sql`(${from.at}::timestamptz, ${from.id}::uuid)`;
    conditions.push(newer ? sql`(${time}, ${id}) > ${place}` : sql`(${time}, ${id}) < ${place}`);
  }
  if (newer) conditions.push(sql`${time} < now() - ${request.settleMs}::int * interval '1 millisecond'`);
  const rows = await read(and(...conditions), newer ? [asc(time), asc(id)] : [desc(time), desc(id)], request.limit + 1);
  return { rows: rows.slice(0, request.limit), more: rows.length > request.limit, from };
}
