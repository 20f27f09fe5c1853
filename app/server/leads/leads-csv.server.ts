import { attributionFields } from "~/lib/site-events.ts";
import { attributionColumns } from "./attribution.server.ts";
import { csvCell, csvCellSql } from "./csv-cells.server.ts";
import { batchesAfter, sqlNames, type RunStatement, type StreamRows } from "../db/index.server.ts";
import { contactRequests } from "./schema.server.ts";

/**
 * The leads CSV, one format for `npm run leads -- export` and the console's download: every contact request, oldest
 * first, each cell made safe by `csvCell`. PostgreSQL writes the lines itself; the embedded database's leads are
 * read a batch at a time and written here.
 */

/**
 * How large a batch of leads from the embedded database may be: its text crosses from the database's thread to the
 * server's as one message, and V8 reads a message over 100 KB straight into its old generation (and a text over
 * 128 KB is a large object), where it stays until a full collection. In batches of 500 leads, about 190 KB each,
 * a download of a busy year took the server's memory up by 90-110 MB; under 100 KB, each batch dies young
 * (BENCHMARKS, "The leads CSV in batches under 100 KB"). A batch reads as many leads as kept the one before near
 * this size, whatever the leads' messages hold, so a year of leads is never held in memory.
 */
const BATCH_BYTES = 90_000;
/** Few enough that even leads of the longest messages keep the first batch under 100 KB. */
const FIRST_BATCH_ROWS = 5;
/** On the ladder below, so that short leads do reach it. */
const MOST_BATCH_ROWS = 1_024;

/** A character outside Latin-1 makes V8 keep the whole text at two bytes a character. */
const beyondLatin1 = /[\u0100-\uffff]/;

/**
 * The leads the next batch may read to stay near BATCH_BYTES, judged by the last batch's text and its leads: a
 * quarter power of two (…, 181, 215, 256, …). Each size is a statement of its own with its LIMIT written in:
 * PostgreSQL plans a statement whose LIMIT is a parameter again at every execution, which cost a download of leads
 * with long messages about a tenth of its rate. On the ladder a download prepares a handful.
 */
function rowsWithinBatchBytes(text: string, rows: number): number {
  const bytesPerRow = (text.length * (beyondLatin1.test(text) ? 2 : 1)) / rows;
  const fitting = Math.max(1, Math.min(MOST_BATCH_ROWS, BATCH_BYTES / bytesPerRow));
  return Math.floor(2 ** (Math.floor(Math.log2(fitting) * 4) / 4));
}

const CONTACT_HEADER = [
  "id",
  "received_at",
  "first_name",
  "last_name",
  "email",
  "phone",
  "service",
  "message",
  "channel",
  "consent_text",
  "global_privacy_control",
  "status",
  ...attributionFields,
];

const c = sqlNames(contactRequests);
const gpc = `CASE WHEN ${c.globalPrivacyControl} THEN 'yes' ELSE 'no' END`;
const textCell = (column: string) => ({ batch: column, line: csvCellSql(column) });
/**
 * Each cell of a lead's line in SQL, GPC as yes or no. For a batch, as text: the received time in UTC to the
 * microsecond (`2026-11-01T10:00:00.123456`, which the next batch's key reads and the line shortens to
 * toISOString()'s form). For PostgreSQL's lines, as `csvCell` writes it: the received time as toISOString() writes it,
 * texts made safe (the id, GPC and status need no care).
 */
const CONTACT_CELLS = [
  { batch: `${c.id}::text`, line: `${c.id}::text` },
  {
    batch: `to_char(${c.receivedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`,
    line: `to_char(${c.receivedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  },
  ...[c.firstName, c.lastName, c.email, c.phone, c.service, c.message, c.channel, c.consentText].map(textCell),
  { batch: gpc, line: gpc },
  { batch: c.status, line: c.status },
  ...attributionFields.map((field) => textCell(c[attributionColumns[field]])),
];

/** Each lead's line, without its end, and its phone number for the extra columns, oldest first. */
const LINES = `SELECT ${CONTACT_CELLS.map((cell) => cell.line).join(" || ',' || ")}, ${c.phone}
  FROM ${c.table} ORDER BY ${c.receivedAt}, ${c.id}`;

/**
 * A batch's leads are one text: each lead's cells (null as empty) joined by the unit separator (U+001F), the leads by
 * the record separator (U+001E). Lead intake refuses both characters, so no cell holds one; a batch in which one does
 * anyway (more leads than the database counted, or a lead of more cells than a lead has) is read again as JSON.
 */
const CELL_SEPARATOR = "\u001f";
const LEAD_SEPARATOR = "\u001e";

/**
 * A batch of leads as one text, `leads` of them, oldest first: with the separators, or as a JSON array of each lead's
 * cells. Joined by separators, the database builds a batch in about 60 % of the time JSON takes (BENCHMARKS, "The
 * embedded leads CSV's batches joined by separators").
 */
const batchStatement = (format: "separated" | "json", after: string, limit: number) => {
  const cells =
    format === "json"
      ? `json_build_array(${CONTACT_CELLS.map((cell) => cell.batch).join(", ")})::text`
      : `concat_ws(chr(31), ${CONTACT_CELLS.map((cell) => `coalesce(${cell.batch}, '')`).join(", ")})`;
  const joined =
    format === "json"
      ? `'[' || string_agg(cells, ',' ORDER BY received_at, id) || ']'`
      : `string_agg(cells, chr(30) ORDER BY received_at, id)`;
  return `SELECT count(*)::int AS leads, ${joined} AS rows FROM (
    SELECT ${cells} AS cells, ${c.receivedAt} AS received_at, ${c.id} AS id
    FROM ${c.table} ${after} ORDER BY ${c.receivedAt}, ${c.id} LIMIT ${limit}) AS batch`;
};
/** The leads after the one whose received time (UTC, as the cells have it) and id are $1 and $2. */
const AFTER_CURSOR = `WHERE (${c.receivedAt}, ${c.id}) > ($1::timestamp AT TIME ZONE 'UTC', $2::uuid)`;

/** A batch's text as each lead's cells, or undefined when a cell held a separator and split it otherwise. */
function separatedCells(text: string, leads: number): string[][] | undefined {
  const rows = text.split(LEAD_SEPARATOR);
  if (rows.length !== leads) return undefined;
  const cells = rows.map((row) => row.split(CELL_SEPARATOR));
  return cells.every((row) => row.length === CONTACT_CELLS.length) ? cells : undefined;
}

/**
 * A column another module adds to the leads CSV: its header, and a lead's cell given the lead's phone number, from
 * what the module read before the export began: the export reads no more statements for it.
 */
export interface ExtraLeadColumn {
  header: string;
  cell(phone: string): string;
}

/** Where the lead's phone number and received time are in its line. */
const PHONE_CELL = CONTACT_HEADER.indexOf("phone");
const RECEIVED_CELL = CONTACT_HEADER.indexOf("received_at");

/** A batch's UTC time (`2026-11-01T10:00:00.123456`) as toISOString() has it. */
const isoMillis = (utc: string): string => `${utc.slice(0, 23)}Z`;

/** What the leads CSV reads with: PostgreSQL's rows as a stream, when it is the database. */
export interface LeadsCsvSource {
  run: RunStatement;
  streamRows?: StreamRows;
}

/**
 * Every contact request, oldest first, as CSV a batch of rows at a time (text, or its UTF-8 bytes), with `extra`
 * columns at the end. A year of leads is never held in memory. A lead arriving during the export may be in it, at
 * the end.
 */
export async function* contactRequestsCsv(
  { run, streamRows }: LeadsCsvSource,
  extra: ExtraLeadColumn[] = [],
): AsyncGenerator<string | Uint8Array> {
  yield [...CONTACT_HEADER, ...extra.map((column) => column.header)].join(",") + "\r\n";
  yield* streamRows ? linesWrittenByPostgres(streamRows, extra) : linesOfBatches(run, extra);
}

/**
 * Each lead's line as PostgreSQL writes it, with its phone number for the extra cells, in one statement read as a
 * stream: building them here from JSON took the server's thread 18 µs a lead, and the export ran at 22,000 leads a
 * second (BENCHMARKS, "The leads CSV written by PostgreSQL"). A batch's text is copied into one buffer, with no
 * object for each lead but its extra cells.
 */
async function* linesWrittenByPostgres(streamRows: StreamRows, extra: ExtraLeadColumn[]): AsyncGenerator<Uint8Array> {
  for await (const { bytes, rows, starts, ends } of streamRows(LINES)) {
    // A row's two columns: its line, then its phone number.
    const tails = Array.from({ length: rows }, (_, row) => {
      if (extra.length === 0) return "\r\n";
      const phone = bytes.toString("utf8", starts[2 * row + 1], ends[2 * row + 1]);
      let tail = "";
      for (const column of extra) tail += "," + csvCell(column.cell(phone));
      return tail + "\r\n";
    });
    let size = 0;
    for (let row = 0; row < rows; row++) size += ends[2 * row]! - starts[2 * row]! + Buffer.byteLength(tails[row]!);
    const text = Buffer.allocUnsafe(size);
    let at = 0;
    for (let row = 0; row < rows; row++) {
      at += bytes.copy(text, at, starts[2 * row], ends[2 * row]);
      at += text.write(tails[row]!, at);
    }
    yield text;
  }
}

/**
 * Each batch is read by its own statement after the last row of the one before (by received time, then id), so no
 * statement holds the embedded database for long. The next batch is read while this one is turned into text and
 * written, so the database and the server work side by side. A batch is one prepared statement's one text, its
 * leads' cells joined: a row of its own for each lead, and a statement planned again for each batch, took as long as
 * reading the leads (BENCHMARKS, "The leads CSV a batch a text"). The first batch is FIRST_BATCH_ROWS leads.
 */
async function* linesOfBatches(run: RunStatement, extra: ExtraLeadColumn[]): AsyncGenerator<string> {
  let batchRows = FIRST_BATCH_ROWS;
  type Cursor = { receivedAt: string; id: string };
  const read = async (format: "separated" | "json", after: Cursor | undefined, size: number) => {
    const [batch] = await run<{ leads: number; rows: string | null }>(
      `leads-csv-${format}-${after ? size : "first"}`,
      batchStatement(format, after ? AFTER_CURSOR : "", size),
      after ? [after.receivedAt, after.id] : [],
    );
    return batch?.rows ? { text: batch.rows, leads: batch.leads } : undefined;
  };
  const readBatch = async (after: Cursor | undefined, size: number) => {
    const batch = await read("separated", after, size);
    if (!batch) return [];
    let rows: (string | null)[][] | undefined = separatedCells(batch.text, batch.leads);
    if (!rows) {
      const json = await read("json", after, size);
      rows = json ? (JSON.parse(json.text) as (string | null)[][]) : [];
    }
    batchRows = rowsWithinBatchBytes(batch.text, rows.length);
    return rows;
  };
  // The next batch's cursor is taken before this batch's received times are shortened for its lines.
  const cursorOf = (last: (string | null)[]) => ({ receivedAt: last[RECEIVED_CELL]!, id: last[0]! });
  for await (const rows of batchesAfter(readBatch, () => batchRows, cursorOf)) {
    let text = "";
    for (const cells of rows) {
      cells[RECEIVED_CELL] = isoMillis(cells[RECEIVED_CELL]!);
      let line = cells.map(csvCell).join(",");
      for (const column of extra) line += "," + csvCell(column.cell(cells[PHONE_CELL]!));
      text += line + "\r\n";
    }
    yield text;
  }
}
