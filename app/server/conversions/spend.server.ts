import { and, desc, gt, lte, sql } from "drizzle-orm";
import { SPEND_TEXT_MAX_LENGTH } from "~/lib/console-limits.ts";
import { AMOUNT_MAX_LENGTH, parseAmount } from "~/lib/money.ts";
import { executeRows, type Database } from "../db/index.server.ts";
import { adSpend } from "./schema.server.ts";

/**
 * Ad spend: what the operator paid a source (and, optionally, one of its campaigns) in a month, entered with the
 * form or as a CSV of the same columns (Month, Source, Campaign, Amount). Saving a month, source and campaign
 * again replaces its amount.
 */

/** The most rows of a spend CSV. */
const SPEND_CSV_MAX_ROWS = 1_000;

export interface SpendEntry {
  /** The month's first day, yyyy-MM-01. */
  month: string;
  source: string;
  campaign: string;
  amountCents: number;
}

type SpendField = "month" | "source" | "campaign" | "amount";
type SpendValidation = { ok: true; entry: SpendEntry } | { ok: false; errors: Partial<Record<SpendField, string>> };

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

/** One row of spend, from the form's fields or a CSV row. */
export function validateSpend(fields: Record<SpendField, string>): SpendValidation {
  const errors: Partial<Record<SpendField, string>> = {};
  const month = fields.month.trim();
  if (!MONTH.test(month) || Number(month.slice(0, 4)) < 2000)
    errors.month = "Enter the month as yyyy-mm, like 2026-11.";
  const source = fields.source.trim();
  if (!source || source.length > SPEND_TEXT_MAX_LENGTH || UNPRINTABLE.test(source)) {
    errors.source = `Enter the source as the visits name it (their utm_source, such as google), up to ${SPEND_TEXT_MAX_LENGTH} characters.`;
  }
  const campaign = fields.campaign.trim();
  if (campaign.length > SPEND_TEXT_MAX_LENGTH || UNPRINTABLE.test(campaign)) {
    errors.campaign = `The campaign can be at most ${SPEND_TEXT_MAX_LENGTH} characters, or empty for the whole source.`;
  }
  const amountCents = fields.amount.length > AMOUNT_MAX_LENGTH ? null : parseAmount(fields.amount);
  if (amountCents === null) errors.amount = "Enter the amount such as 1500 or 1,250.50, without a currency sign.";
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, entry: { month: `${month}-01`, source, campaign, amountCents: amountCents! } };
}

/** RFC 4180 fields: commas, quotes doubled inside quoted fields, CRLF or LF lines. Null when a quote is left open. */
function parseCsv(text: string): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === "") quoted = true;
    else if (char === ",") endField();
    else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      endRow();
    } else field += char;
  }
  if (quoted) return null;
  if (field !== "" || row.length) endRow();
  return rows.filter((cells) => cells.some((cell) => cell.trim() !== ""));
}

type SpendCsvResult = { ok: true; entries: SpendEntry[] } | { ok: false; errors: string[] };

const COLUMNS = ["month", "source", "campaign", "amount"] as const;
const LABELS: Record<SpendField, string> = { month: "Month", source: "Source", campaign: "Campaign", amount: "Amount" };
/** The first errors are shown; a file with more has the same mistake throughout. */
const ERRORS_SHOWN = 20;

/**
 * A spend CSV: a header row `Month,Source,Campaign,Amount` (any order, any case), then one row per month, source
 * and campaign. Every row is checked; one bad row and nothing is saved, with an error naming each bad row's line
 * and field.
 */
export function parseSpendCsv(text: string): SpendCsvResult {
  const rows = parseCsv(text.replace(/^\uFEFF/, ""));
  if (rows === null) return { ok: false, errors: ["A quoted field is never closed."] };
  const [header, ...body] = rows;
  const names = (header ?? []).map((cell) => cell.trim().toLowerCase());
  const positions = COLUMNS.map((column) => names.indexOf(column));
  if (positions.some((position, index) => position < 0 && COLUMNS[index] !== "campaign")) {
    return { ok: false, errors: ["The first row must name the columns: Month, Source, Campaign, Amount."] };
  }
  if (body.length === 0) return { ok: false, errors: ["The file has no rows of spend."] };
  if (body.length > SPEND_CSV_MAX_ROWS) {
    return { ok: false, errors: [`The file has more than ${SPEND_CSV_MAX_ROWS.toLocaleString("en-US")} rows.`] };
  }
  const errors: string[] = [];
  const entries = new Map<string, SpendEntry>();
  body.forEach((cells, index) => {
    const line = index + 2;
    const value = (column: SpendField) => cells[positions[COLUMNS.indexOf(column)]!] ?? "";
    const result = validateSpend({
      month: value("month"),
      source: value("source"),
      campaign: value("campaign"),
      amount: value("amount"),
    });
    if (!result.ok) {
      for (const [field, message] of Object.entries(result.errors)) {
        errors.push(`Line ${line}, ${LABELS[field as SpendField]}: ${message}`);
      }
      return;
    }
    const key = JSON.stringify([result.entry.month, result.entry.source, result.entry.campaign]);
    if (entries.has(key)) errors.push(`Line ${line}: the same month, source and campaign as an earlier line.`);
    entries.set(key, result.entry);
  });
  if (errors.length) {
    const more = errors.length - ERRORS_SHOWN;
    return { ok: false, errors: more > 0 ? [...errors.slice(0, ERRORS_SHOWN), `And ${more} more.`] : errors };
  }
  return { ok: true, entries: [...entries.values()] };
}

/** An uploaded spend CSV: a non-empty file of UTF-8 text, parsed as parseSpendCsv does. */
export async function parseSpendFile(file: FormDataEntryValue | null): Promise<SpendCsvResult> {
  if (!(file instanceof File) || file.size === 0) return { ok: false, errors: ["Choose a CSV file."] };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    return { ok: false, errors: ["The file is not UTF-8 text."] };
  }
  return parseSpendCsv(text);
}

/** Saves spend rows in one statement, each replacing any amount saved before for its month, source and campaign. */
export async function saveSpend(db: Database, entries: SpendEntry[]): Promise<void> {
  const s = adSpend;
  const column = (name: { name: string }) => sql.identifier(name.name);
  await executeRows(
    db,
    sql`INSERT INTO ${s} (${column(s.month)}, ${column(s.source)}, ${column(s.campaign)}, ${column(s.amountCents)})
    SELECT month, source, campaign, amount_cents
    FROM jsonb_to_recordset(${JSON.stringify(
      entries.map((entry) => ({ ...entry, amount_cents: entry.amountCents })),
    )}::jsonb) AS spend(month date, source text, campaign text, amount_cents int)
    ON CONFLICT ON CONSTRAINT ad_spend_pk DO UPDATE
      SET ${column(s.amountCents)} = excluded.${column(s.amountCents)}, ${column(s.updatedAt)} = now()`,
  );
}

/** The spend saved, latest month first, for the page's list. */
export function recentSpend(db: Database, limit = 100) {
  return db
    .select({
      month: adSpend.month,
      source: adSpend.source,
      campaign: adSpend.campaign,
      amountCents: adSpend.amountCents,
    })
    .from(adSpend)
    .orderBy(desc(adSpend.month), adSpend.source, adSpend.campaign)
    .limit(limit);
}

const DAY_MS = 86_400_000;
const utcDay = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS;

/**
 * Spend per source and campaign over the days `from` to `to` (ISO dates, both included): each month's amount
 * spread evenly over its days, so a range holding part of a month holds that part of its spend (in cents, rounded).
 */
export async function spendInRange(
  db: Database,
  from: string,
  to: string,
): Promise<{ source: string; campaign: string; costCents: number }[]> {
  const rows = await db
    .select()
    .from(adSpend)
    .where(and(lte(adSpend.month, to), gt(sql`(${adSpend.month} + interval '1 month')::date`, from)));
  const costs = new Map<string, { source: string; campaign: string; costCents: number }>();
  for (const row of rows) {
    const start = utcDay(row.month);
    const next = new Date(row.month);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const end = next.getTime() / DAY_MS;
    const overlap = Math.min(end, utcDay(to) + 1) - Math.max(start, utcDay(from));
    if (overlap <= 0) continue;
    const key = JSON.stringify([row.source, row.campaign]);
    const cost = costs.get(key) ?? { source: row.source, campaign: row.campaign, costCents: 0 };
    cost.costCents += (row.amountCents * overlap) / (end - start);
    costs.set(key, cost);
  }
  return [...costs.values()].map((cost) => ({ ...cost, costCents: Math.round(cost.costCents) }));
}
