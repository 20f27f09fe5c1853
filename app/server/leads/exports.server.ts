import { asc } from "drizzle-orm";
import { attributionFields } from "~/lib/site-events.ts";
import { attributionColumns } from "./attribution.server.ts";
import { sqlNames, type Database, type RunStatement } from "../db/index.server.ts";
import { contactRequests, privacyRequests } from "./schema.server.ts";

/**
 * The CSV exports of contact and opt-out requests, one format for `npm run leads -- export` and the
 * console's downloads. Cells are safe to open in a spreadsheet: none is run as a formula, and a cell
 * holding the separator of either convention (`,` or `;`, as in many European locales) is quoted.
 */

type Cell = string | Date | null;

// A cell starting with one of these, even after spaces, is run as a formula by spreadsheet programs; a negative
// number alone ("-20.00", a credit on a statement) is read as the number it is, and stays one.
const FORMULA_START = /^[\t\r]|^\s*[=+\-@]/;
const NEGATIVE_NUMBER = /^-\d+(?:\.\d+)?$/;
const NEEDS_QUOTES = /[",;\r\n]/;

export function csvCell(value: Cell): string {
  const text = value instanceof Date ? value.toISOString() : (value ?? "");
  const safe = FORMULA_START.test(text) && !NEGATIVE_NUMBER.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csv(rows: Cell[][]): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/**
 * Rows read per statement. The export holds two batches at a time, the one being written and the next being read,
 * so its memory is bounded whatever the table's size. Batches of 500 are small enough to die in V8's young
 * generation (2 MB semi-spaces, `npm run serve`): batches of 2,000 outlived it, were moved to the old generation, and
 * took the server's memory up by 60-115 MB during a download, for no faster an export (BENCHMARKS, "The leads CSV in
 * batches of 500").
 */
const EXPORT_BATCH_ROWS = 500;

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
/**
 * Each cell of a lead's line as the database writes it: the received time in UTC to the microsecond (JSON's
 * `2026-11-01T10:00:00.123456`, which the next batch's key reads and the line shortens to toISOString()'s form),
 * GPC as yes or no.
 */
const CONTACT_CELLS = [
  c.id,
  `${c.receivedAt} AT TIME ZONE 'UTC'`,
  c.firstName,
  c.lastName,
  c.email,
  c.phone,
  c.service,
  c.message,
  c.channel,
  c.consentText,
  `CASE WHEN ${c.globalPrivacyControl} THEN 'yes' ELSE 'no' END`,
  c.status,
  ...attributionFields.map((field) => c[attributionColumns[field]]),
].join(", ");

/** A batch of leads as one text, a JSON array of each lead's cells, oldest first. */
const batchStatement = (after: string) =>
  `SELECT '[' || string_agg(cells, ',' ORDER BY received_at, id) || ']' AS rows FROM (
    SELECT json_build_array(${CONTACT_CELLS})::text AS cells, ${c.receivedAt} AS received_at, ${c.id} AS id
    FROM ${c.table} ${after} ORDER BY ${c.receivedAt}, ${c.id} LIMIT ${EXPORT_BATCH_ROWS}) AS batch`;
const FIRST_BATCH = batchStatement("");
/** The batch after the lead whose received time (UTC, as the cells have it) and id are $1 and $2. */
const NEXT_BATCH = batchStatement(`WHERE (${c.receivedAt}, ${c.id}) > ($1::timestamp AT TIME ZONE 'UTC', $2::uuid)`);

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

/** A UTC time as PostgreSQL's JSON has it (`2026-11-01T10:00:00.1234`, no fraction on a whole second) as toISOString() has it. */
function isoMillis(utc: string): string {
  return `${utc.slice(0, 19)}.${(utc.slice(20, 23) + "000").slice(0, 3)}Z`;
}

/**
 * Every contact request, oldest first, as CSV text a batch of rows at a time, with `extra` columns at the end: each
 * batch is read by its own statement after the last row of the one before (by received time, then id), so a year of
 * leads is never held in memory and no statement holds the database for long. The next batch is read while this one
 * is turned into text and written, so the database and the server work side by side. A batch is one prepared
 * statement's one text, a JSON array of each lead's cells: on the embedded database a row of its own for each lead,
 * and a statement planned again for each batch, took as long as reading the leads (BENCHMARKS, "The leads CSV a
 * batch a text"). A lead arriving during the export may be in it, at the end.
 */
export async function* contactRequestsCsv(run: RunStatement, extra: ExtraLeadColumn[] = []): AsyncGenerator<string> {
  yield [...CONTACT_HEADER, ...extra.map((column) => column.header)].join(",") + "\r\n";
  const readBatch = async (after?: { receivedAt: string; id: string }): Promise<(string | null)[][]> => {
    const [batch] = after
      ? await run<{ rows: string | null }>("leads-csv-next-batch", NEXT_BATCH, [after.receivedAt, after.id])
      : await run<{ rows: string | null }>("leads-csv-first-batch", FIRST_BATCH, []);
    return batch?.rows ? (JSON.parse(batch.rows) as (string | null)[][]) : [];
  };
  let batch = readBatch();
  for (;;) {
    const rows = await batch;
    const more = rows.length === EXPORT_BATCH_ROWS;
    if (more) {
      const last = rows.at(-1)!;
      batch = readBatch({ receivedAt: last[RECEIVED_CELL]!, id: last[0]! });
      // A download closed while the next batch is read leaves that statement unawaited: its failure is no one's.
      batch.catch(() => undefined);
    }
    let text = "";
    for (const cells of rows) {
      cells[RECEIVED_CELL] = isoMillis(cells[RECEIVED_CELL]!);
      let line = cells.map(csvCell).join(",");
      for (const column of extra) line += "," + csvCell(column.cell(cells[PHONE_CELL]!));
      text += line + "\r\n";
    }
    if (text) yield text;
    if (!more) return;
  }
}

/** Every opt-out request, oldest first; status is "open" until someone marks it done. */
export async function optOutRequestsCsv(db: Database): Promise<string> {
  const rows = await db.select().from(privacyRequests).orderBy(asc(privacyRequests.receivedAt));
  return csv([
    ["id", "received_at", "due_at", "completed_at", "name", "email", "message", "channel", "status", "completed_by"],
    ...rows.map((row) => [
      row.id,
      row.receivedAt,
      row.dueAt,
      row.completedAt,
      row.name,
      row.email,
      row.message,
      row.channel,
      row.completedAt ? "done" : "open",
      row.completedBy,
    ]),
  ]);
}
