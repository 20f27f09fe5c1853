import { firstOpenDayStart, summedByKey } from "~/lib/dashboard-figures.ts";
import type { Database } from "../db/index.server.ts";
import { callCountsVersion } from "./schema.server.ts";

/**
 * A count of the calls of a range that keeps, per database and arguments, what it counted over the days that are
 * over, for as long as the database's version of the calls stays as it was when it was read: the database raises it
 * whenever a statement writes a call of a day before the current one, so what another instance or the retention purge
 * changes is counted again. The days still open are counted on each call, their rows summed with the kept ones of
 * the same `key`. On the embedded database a busy quarter's 50,000 calls take 25-100 ms to count, today's a few.
 */
export function keptForDaysOver<Row extends Record<Figure, number>, Figure extends string, Args extends unknown[]>(
  count: (db: Database, startsAt: Date, endsAt: Date, ...args: Args) => Promise<Row[]>,
  key: (row: Row) => readonly unknown[],
  figures: readonly Figure[],
) {
  type Kept = { startsAt: number; overAt: number; args: string; version: number; rows: Row[] };
  const kept = new WeakMap<Database, Kept[]>();
  return async (db: Database, startsAt: Date, endsAt: Date, ...args: Args): Promise<Row[]> => {
    // The start of the first day still open, or the range's end if it is over by then.
    const overAt = Math.min(firstOpenDayStart(), endsAt.getTime());
    if (overAt <= startsAt.getTime()) return count(db, startsAt, endsAt, ...args);
    // The version is read before the counts: a write between the two leaves counts stored under an older version,
    // read again next time; never counts older than the version they are stored under.
    const [current] = await db.select({ version: callCountsVersion.version }).from(callCountsVersion);
    const version = current!.version;
    const argsText = JSON.stringify(args);
    const sameTime = (counts: Kept) => counts.overAt === overAt && counts.version === version;
    const same = (counts: Kept) => counts.startsAt === startsAt.getTime() && counts.args === argsText;
    const over = kept.get(db)?.find((counts) => sameTime(counts) && same(counts)) ?? {
      startsAt: startsAt.getTime(),
      overAt,
      args: argsText,
      version,
      rows: await count(db, startsAt, new Date(overAt), ...args),
    };
    // Counts of other ranges over at the same moment and at the same version are kept; older ones are dropped.
    const others = (kept.get(db) ?? []).filter((counts) => sameTime(counts) && !same(counts));
    kept.set(db, [...others, over]);
    if (overAt === endsAt.getTime()) return over.rows;
    return summedByKey([...over.rows, ...(await count(db, new Date(overAt), endsAt, ...args))], key, figures);
  };
}
