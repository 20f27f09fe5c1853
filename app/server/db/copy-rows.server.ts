import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { log } from "../log.server.ts";

/**
 * A statement's rows as they arrive, in batches, one snapshot however long they take to read. A batch holds its
 * rows' columns as bytes (a text column's UTF-8), without an object for each row or column: a year of leads read as
 * a list of views for each row allocated a kilobyte a lead, and the collections that followed slowed the download.
 */
export type StreamRows = (query: string) => AsyncIterable<RowBatch>;

/**
 * Row `r`'s column `c` is `bytes` from `starts[r * columns + c]` to `ends[r * columns + c]`; a start of -1 is NULL.
 */
export interface RowBatch {
  bytes: Buffer;
  rows: number;
  columns: number;
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * A reader that has taken no rows for this long has gone: a download whose client stopped reading would otherwise keep
 * its statement's snapshot, and so every dead row vacuum could remove, for as long as its connection stays open
 * (PostgreSQL's own statement timeout does not end a statement waiting to send).
 */
const IDLE_READER_MS = 60_000;

/**
 * StreamRows on PostgreSQL: the statement's rows as COPY writes them in its binary format, which PostgreSQL sends as
 * fast as they are read and no faster (the socket is paused while the reader is behind). On a connection of its own,
 * outside the pool and its statement timeout, since a year of leads takes longer to read than a visitor's statement
 * may; a reader that stops, early or for IDLE_READER_MS, closes it, which ends the statement.
 */
export function postgresStreamRows(databaseUrl: string, idleReaderMs = IDLE_READER_MS): StreamRows {
  return async function* streamRows(query) {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
    // A connection lost between statements is reported by the next one; the statement's own errors end the rows.
    client.on("error", (error) => log.error(`PostgreSQL stream connection error: ${error.message}`));
    let closing: Promise<void> | undefined;
    const close = () => (closing ??= client.end());
    let waitingSince: number | undefined;
    const watchdog = setInterval(() => {
      if (waitingSince !== undefined && performance.now() - waitingSince > idleReaderMs) void close();
    }, idleReaderMs / 4);
    watchdog.unref();
    try {
      await client.connect();
      // One backend reads the rows, with no parallel workers: PostgreSQL sends rows only as fast as the reader takes
      // them, so workers making them ahead gain nothing, and take cores the site needs. A busy year's leads CSV ran
      // at 44,900-46,900 rows a second without them, 40,600-41,800 with two (BENCHMARKS, "The leads CSV on
      // PostgreSQL read by one backend").
      await client.query("SET max_parallel_workers_per_gather = 0");
      const rows = binaryCopyRows();
      for await (const chunk of client.query(copyTo(`COPY (${query}) TO STDOUT (FORMAT binary)`))) {
        const batch = rows.next(chunk as Buffer);
        if (batch.rows === 0) continue;
        waitingSince = performance.now();
        yield batch;
        waitingSince = undefined;
      }
      rows.end();
    } finally {
      clearInterval(watchdog);
      await close();
    }
  };
}

/** COPY's binary format: a signature, flags and a header extension; then rows; then a row count of -1. */
const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
const HEADER_BYTES = SIGNATURE.length + 4 + 4;

/**
 * Reads COPY's binary format a chunk at a time, cut anywhere: each row is its number of columns (16 bits), then
 * each column's length (32 bits, -1 for NULL) and bytes, all big-endian.
 */
export function binaryCopyRows() {
  let pending: Buffer = Buffer.alloc(0);
  let header = true;
  let ended = false;
  let columns = 0;
  return {
    next(chunk: Buffer): RowBatch {
      const bytes = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      if (header) {
        if (bytes.length < HEADER_BYTES) {
          pending = bytes;
          return { bytes, rows: 0, columns, starts: new Int32Array(0), ends: new Int32Array(0) };
        }
        if (!bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error("Not COPY's binary format.");
        at = HEADER_BYTES + bytes.readInt32BE(SIGNATURE.length + 4);
        header = false;
      }
      // Each column takes at least its 4-byte length, each row its 2-byte count.
      const starts = new Int32Array(Math.ceil(bytes.length / 4));
      const ends = new Int32Array(starts.length);
      let rows = 0;
      while (!ended && bytes.length - at >= 2) {
        const count = bytes.readInt16BE(at);
        if (count === -1) {
          ended = true;
          at += 2;
          break;
        }
        columns = count;
        let next = at + 2;
        const first = rows * columns;
        for (let column = 0; column < columns && next !== -1; column++) {
          if (bytes.length - next < 4) next = -1;
          else {
            const length = bytes.readInt32BE(next);
            if (length === -1) {
              starts[first + column] = -1;
              next += 4;
            } else if (bytes.length - next - 4 < length) next = -1;
            else {
              starts[first + column] = next + 4;
              ends[first + column] = next + 4 + length;
              next += 4 + length;
            }
          }
        }
        if (next === -1) break;
        rows += 1;
        at = next;
      }
      pending = bytes.subarray(at);
      return { bytes, rows, columns, starts, ends };
    },
    /** Throws if the rows stopped before COPY's end. */
    end() {
      if (!ended || pending.length > 0) throw new Error("COPY's rows ended early.");
    },
  };
}
