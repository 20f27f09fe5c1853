import { asc, getTableColumns, sql } from "drizzle-orm";
import { attributionFields } from "~/lib/site-events.ts";
import { attributionColumns } from "./attribution.server.ts";
import type { Database } from "../db/index.server.ts";
import { contactRequests, privacyRequests } from "./schema.server.ts";

/**
 * The CSV exports of contact and opt-out requests, one format for `npm run leads -- export` and the
 * console's downloads. Cells are safe to open in a spreadsheet: none is run as a formula, and a cell
 * holding the separator of either convention (`,` or `;`, as in many European locales) is quoted.
 */

type Cell = string | Date | null;

// A cell starting with one of these, even after spaces, is run as a formula by spreadsheet programs.
const FORMULA_START = /^[\t\r]|^\s*[=+\-@]/;
const NEEDS_QUOTES = /[",;\r\n]/;

export function csvCell(value: Cell): string {
  const text = value instanceof Date ? value.toISOString() : (value ?? "");
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csv(rows: Cell[][]): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** Rows read per statement: the export's memory is one batch, whatever the table's size. */
const EXPORT_BATCH_ROWS = 5_000;

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

function contactLine(row: typeof contactRequests.$inferSelect): string {
  return (
    [
      row.id,
      row.receivedAt,
      row.firstName,
      row.lastName,
      row.email,
      row.phone,
      row.service,
      row.message,
      row.channel,
      row.consentText,
      row.globalPrivacyControl ? "yes" : "no",
      row.status,
      ...attributionFields.map((field) => row[attributionColumns[field]]),
    ]
      .map(csvCell)
      .join(",") + "\r\n"
  );
}

/**
 * Every contact request, oldest first, as CSV text a batch of rows at a time: each batch is read by its own
 * statement after the last row of the one before (by received time, then id), so a year of leads is never held in
 * memory and no statement holds the database for long. A lead arriving during the export may be in it, at the end.
 */
export async function* contactRequestsCsv(db: Database): AsyncGenerator<string> {
  yield CONTACT_HEADER.join(",") + "\r\n";
  let after: { receivedAt: string; id: string } | null = null;
  for (;;) {
    const rows: (typeof contactRequests.$inferSelect & { cursor: string })[] = await db
      .select({ ...getTableColumns(contactRequests), cursor: sql<string>`${contactRequests.receivedAt}::text` })
      .from(contactRequests)
      .where(
        after
          ? sql`(${contactRequests.receivedAt}, ${contactRequests.id}) > (${after.receivedAt}::timestamptz, ${after.id}::uuid)`
          : undefined,
      )
      .orderBy(asc(contactRequests.receivedAt), asc(contactRequests.id))
      .limit(EXPORT_BATCH_ROWS);
    if (rows.length > 0) yield rows.map(contactLine).join("");
    if (rows.length < EXPORT_BATCH_ROWS) return;
    const last = rows[rows.length - 1]!;
    after = { receivedAt: last.cursor, id: last.id };
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
