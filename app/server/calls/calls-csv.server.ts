import { asc, getTableColumns, sql } from "drizzle-orm";
import { attributionFields } from "~/lib/site-events.ts";
import { batchesAfter, type Database } from "../db/index.server.ts";
import { csvCell } from "../leads/index.server.ts";
import { ATTRIBUTION_KEYS } from "./call-log.server.ts";
import { outcomeOf } from "./calls-list.server.ts";
import { calls } from "./schema.server.ts";

/**
 * Calls read per statement. The download holds two batches at a time, the one being written and the next being
 * read, so its memory is bounded whatever the table's size, and a lead arriving meanwhile on the embedded database
 * waits for one small statement at most. A busy year's 200,000 calls read in one statement held lead intake up for
 * 9 s and grew the server by 570 MB; in batches of 500 intake's p99 was 100 ms, of 100 about 55 ms, the download
 * taking 23 s (BENCHMARKS, "The calls CSV in batches").
 */
const CSV_BATCH_CALLS = 100;

const HEADER = [
  "id",
  "started_at",
  "caller",
  "called",
  "line",
  "outcome",
  "status",
  "duration_seconds",
  "recording",
  ...attributionFields,
];

type StoredCall = typeof calls.$inferSelect;

function line(row: StoredCall): string {
  return (
    [
      row.id,
      row.startedAt,
      row.caller,
      row.called,
      row.line,
      outcomeOf(row.status),
      row.status,
      row.durationSeconds === null ? null : String(row.durationSeconds),
      row.recordingSid ? "yes" : "no",
      // The visit's attribution, in the order of `attributionFields`.
      ...ATTRIBUTION_KEYS.map((key) => row[key]),
    ]
      .map(csvCell)
      .join(",") + "\r\n"
  );
}

/**
 * Every call, oldest first (by start, then id), safe to open in a spreadsheet, a batch at a time: each batch is read
 * by its own statement after the last call of the one before (its start to the microsecond, as the database has
 * it), and the next batch is read while this one is written. A call arriving during the download may be in it, at
 * the end.
 */
export async function* callsCsv(db: Database): AsyncGenerator<string> {
  yield HEADER.join(",") + "\r\n";
  const readBatch = (after?: { at: string; id: string }) =>
    db
      .select({ ...getTableColumns(calls), cursorAt: sql<string>`${calls.startedAt}::text` })
      .from(calls)
      .where(after ? sql`(${calls.startedAt}, ${calls.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined)
      .orderBy(asc(calls.startedAt), asc(calls.id))
      .limit(CSV_BATCH_CALLS)
      .execute();
  for await (const rows of batchesAfter(readBatch, CSV_BATCH_CALLS, (last) => ({ at: last.cursorAt, id: last.id }))) {
    yield rows.map(line).join("");
  }
}
