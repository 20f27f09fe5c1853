import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import { formatDate, wallClock, zonedInstant } from "../../lib/operator-time.ts";
import { escapeHtml } from "../../lib/escape-html.ts";
import { sqlNames, type Database, type RunStatement } from "../db/index.server.ts";
import { csvCell } from "../leads/index.server.ts";
import { emailRow, queueEmailsCte } from "../outbox/index.server.ts";
import { isoUtc, queueWebhooksCte } from "../webhooks/index.server.ts";
import { formatMinor, minorToDecimal } from "./money.server.ts";
import { ledgerEntries, ledgerSettings, partnerStatements } from "./schema.server.ts";

/**
 * Monthly statements: on the 1st of each month from 08:00 in OPERATOR_TIME_ZONE, each partner with entries in the
 * month before gets a numbered statement of it (opening balance, every entry, closing balance, amount due), stored
 * as the CSV it is, and emailed with a signed link to a printable page (and told to webhooks as `statement.issued`,
 * in the same statement). Issuing is idempotent: one statement per partner and month (a unique index), so any
 * instance may try, as often as it likes. Numbers follow without gaps, however many instances issue at once: a
 * statement takes the number after the highest issued, in the statement that stores it, and a number another instance
 * took at that moment (a unique index) is given up and the statement tried again.
 */

const SEND_HOUR = 8;
const KIND_LABELS = { charge: "Charge", credit: "Credit", payment: "Payment", adjustment: "Adjustment" } as const;
const s = sqlNames(partnerStatements);

export interface StatementPeriod {
  /** "2026-11". */
  period: string;
  startsAt: Date;
  endsAt: Date;
}

const pad = (value: number) => String(value).padStart(2, "0");

/** The month whose statements are due at `now`: last month from the 1st at 08:00, the month before until then. */
export function duePeriod(now: Date, timeZone: string): StatementPeriod {
  const { year, month } = wallClock(now, timeZone);
  const sendAt = zonedInstant(`${year}-${pad(month)}-01`, SEND_HOUR, timeZone);
  return monthsBack(now, timeZone, now.getTime() >= sendAt.getTime() ? 1 : 2);
}

/** Last month in OPERATOR_TIME_ZONE, whatever the hour: what "Issue last month's statements now" issues. */
export function lastMonthPeriod(now: Date, timeZone: string): StatementPeriod {
  return monthsBack(now, timeZone, 1);
}

function monthsBack(now: Date, timeZone: string, back: number): StatementPeriod {
  const { year, month } = wallClock(now, timeZone);
  const start = new Date(Date.UTC(year, month - 1 - back, 1));
  const end = new Date(Date.UTC(year, month - back, 1));
  const date = (day: Date) => day.toISOString().slice(0, 10);
  return {
    period: date(start).slice(0, 7),
    startsAt: zonedInstant(date(start), 0, timeZone),
    endsAt: zonedInstant(date(end), 0, timeZone),
  };
}

interface StatementSettings {
  companyName: string;
  replyTo: string;
  messageIdDomain: string;
  currency: string;
  timeZone: string;
  /** A statement is due this many days after it is issued (STATEMENT_DUE_DAYS). */
  dueDays: number;
  /** The printable page's signed address for a statement. */
  link(statementId: string): string;
}

/** The unique index a number taken by another instance at the same moment runs into. */
const NUMBER_TAKEN = "partner_statements_number_unique";
/** How often a statement is tried again after other instances took the number it was to have. */
const NUMBER_TRIES = 10;

const numberTaken = (error: unknown) =>
  typeof error === "object" &&
  error !== null &&
  (error as { code?: unknown }).code === "23505" &&
  (error as { constraint?: unknown }).constraint === NUMBER_TAKEN;

const monthName = (period: string) =>
  new Date(`${period}-01T00:00:00Z`).toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

const ISSUE = `WITH issued AS (
  INSERT INTO ${s.table} (${s.id}, ${s.number}, ${s.partnerId}, ${s.period}, ${s.openingMinor}, ${s.closingMinor}, ${s.csv},
    ${s.issuedAt})
  VALUES ($1::uuid, $2, $3::uuid, $4, $5, $6, $7, $9::timestamptz)
  ON CONFLICT (${s.partnerId}, ${s.period}) DO NOTHING
  RETURNING *
),
${queueEmailsCte({ rows: "$8", where: "EXISTS (SELECT 1 FROM issued)" })},
${queueWebhooksCte({
  name: "queued_webhooks",
  event: "statement.issued",
  from: "issued AS statement",
  data: `jsonb_build_object('id', statement.${s.id}, 'number', statement.${s.number},
    'partner_id', statement.${s.partnerId}, 'period', statement.${s.period},
    'issued_at', ${isoUtc(`statement.${s.issuedAt}`)}, 'opening_minor', statement.${s.openingMinor},
    'closing_minor', statement.${s.closingMinor}, 'amount_due_minor', greatest(statement.${s.closingMinor}, 0))`,
})}
SELECT count(*)::int AS issued FROM issued`;

/**
 * A partner's statement of a period as its CSV would read under a number (opening balance, every entry, closing
 * balance, amount due), and how many entries it has (a month without any is not issued).
 */
async function draftStatement(
  db: Database,
  partner: { id: string; name: string; business: string },
  due: StatementPeriod,
  settings: { currency: string; timeZone: string },
) {
  const inPeriod = and(
    eq(ledgerEntries.partnerId, partner.id),
    gte(ledgerEntries.recordedAt, due.startsAt),
    lt(ledgerEntries.recordedAt, due.endsAt),
  );
  const [entries, [opening]] = await Promise.all([
    db.select().from(ledgerEntries).where(inPeriod).orderBy(asc(ledgerEntries.recordedAt), asc(ledgerEntries.id)),
    db
      .select({ sum: sql`coalesce(sum(${ledgerEntries.amountMinor}), 0)::bigint`.mapWith(Number) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.partnerId, partner.id), lt(ledgerEntries.recordedAt, due.startsAt))),
  ]);
  const openingMinor = opening?.sum ?? 0;
  const closingMinor = entries.reduce((sum, entry) => sum + entry.amountMinor, openingMinor);
  const amount = (minor: number) => minorToDecimal(minor, settings.currency);
  const csv = (number: string) => {
    const rows: (string | null)[][] = [
      ["Statement", number],
      ["Partner", `${partner.name} (${partner.business})`],
      ["Period", monthName(due.period)],
      ["Currency", settings.currency],
      [],
      ["Date", "Entry", "Details", "Amount"],
      ["", "Opening balance", "", amount(openingMinor)],
      ...entries.map((entry) => [
        formatDate(entry.recordedAt, settings.timeZone),
        KIND_LABELS[entry.kind],
        // An adjustment's own note is the operator's: only its note for the partner is printed.
        [
          entry.service,
          entry.zip,
          entry.method,
          entry.reference,
          entry.kind === "adjustment" ? entry.partnerNote : entry.note,
        ]
          .filter(Boolean)
          .join(" · "),
        amount(entry.amountMinor),
      ]),
      ["", "Closing balance", "", amount(closingMinor)],
      ["", "Amount due", "", amount(Math.max(closingMinor, 0))],
    ];
    return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
  };
  return { entryCount: entries.length, openingMinor, closingMinor, csv };
}

/**
 * "Preview statement": the partner's statement of the month in progress (to now) as it would be issued today, for
 * the operator only (nothing stored, no number taken).
 */
export async function previewStatement(
  db: Database,
  partner: { id: string; name: string; business: string },
  now: Date,
  settings: { currency: string; timeZone: string; dueDays: number },
) {
  const { year, month } = wallClock(now, settings.timeZone);
  const period = `${year}-${pad(month)}`;
  const inProgress: StatementPeriod = {
    period,
    startsAt: zonedInstant(`${period}-01`, 0, settings.timeZone),
    endsAt: now,
  };
  const drafted = await draftStatement(db, partner, inProgress, settings);
  return statementView(
    { number: "Preview", issuedAt: now, csv: drafted.csv("Preview (not issued)") },
    { ...settings, paymentInstructions: await paymentInstructions(db) },
  );
}

/** Issues the partner's statement for the period, if they had entries in it and it was not issued before. */
export async function issueStatement(
  db: Database,
  run: RunStatement,
  partner: { id: string; name: string; business: string; email: string },
  due: StatementPeriod,
  settings: StatementSettings,
): Promise<boolean> {
  for (let tries = 1; ; tries++) {
    try {
      return await issueOnce(db, run, partner, due, settings);
    } catch (error) {
      // Another instance issued a statement under this number at the same moment: the next one is free.
      if (tries < NUMBER_TRIES && numberTaken(error)) continue;
      throw error;
    }
  }
}

/** One try at issuing the statement: a unique violation when another instance took its number meanwhile. */
async function issueOnce(...[db, run, partner, due, settings]: Parameters<typeof issueStatement>): Promise<boolean> {
  // Every instance checks every 15 minutes: a statement already issued is skipped before anything is drafted.
  const [already] = await db
    .select({ id: partnerStatements.id })
    .from(partnerStatements)
    .where(and(eq(partnerStatements.partnerId, partner.id), eq(partnerStatements.period, due.period)))
    .limit(1);
  if (already) return false;
  const drafted = await draftStatement(db, partner, due, settings);
  if (drafted.entryCount === 0) return false;
  const [numbered] = await db
    .select({ next: sql`coalesce(max(${partnerStatements.number}), 0) + 1`.mapWith(Number) })
    .from(partnerStatements);
  const number = numbered!.next;
  const { openingMinor, closingMinor } = drafted;
  const csv = drafted.csv(String(number));
  const id = randomUUID();
  const issuedAt = new Date();
  const dates = statementDates(issuedAt, settings);
  const link = settings.link(id);
  const howToPay = await paymentInstructions(db);
  const text = `Hello ${partner.name},\n\nYour statement ${number} from ${settings.companyName} for ${monthName(due.period)}: amount due ${formatMinor(Math.max(closingMinor, 0), settings.currency)} (closing balance ${formatMinor(closingMinor, settings.currency)}).\n\nIssued: ${dates.issued}\nDue: ${dates.due}\n\nView or print it:\n${link}\n\n${howToPay ? `How to pay:\n${howToPay.replace(/\n\n+/g, "\n")}\n\n` : ""}${settings.companyName}\n`;
  const email = emailRow(
    {
      purpose: "partner_statement",
      to: partner.email,
      replyTo: settings.replyTo,
      subject: `Statement ${number} from ${settings.companyName}: ${monthName(due.period)}`,
      text,
      html: `<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#111">${text
        .trim()
        .split("\n\n")
        .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
        .join("")}</body></html>`,
    },
    settings.messageIdDomain,
  );
  const [issued] = await run<{ issued: number }>("ledger_statement_issue", ISSUE, [
    id,
    number,
    partner.id,
    due.period,
    openingMinor,
    closingMinor,
    csv,
    JSON.stringify([email]),
    issuedAt.toISOString(),
  ]);
  return (issued?.issued ?? 0) > 0;
}

/** How many partners had entries in the period and have no statement of it yet. */
export async function unissuedCount(db: Database, due: StatementPeriod): Promise<number> {
  const [row] = await db
    .select({ count: sql`count(DISTINCT ${ledgerEntries.partnerId})::int`.mapWith(Number) })
    .from(ledgerEntries)
    .where(
      and(
        gte(ledgerEntries.recordedAt, due.startsAt),
        lt(ledgerEntries.recordedAt, due.endsAt),
        sql`NOT EXISTS (SELECT 1 FROM ${partnerStatements} WHERE ${partnerStatements.partnerId} = ${ledgerEntries.partnerId} AND ${partnerStatements.period} = ${due.period})`,
      ),
    );
  return row?.count ?? 0;
}

/** A partner's statements, newest first. */
export function listStatements(db: Database, partnerId: string) {
  return db
    .select({
      id: partnerStatements.id,
      number: partnerStatements.number,
      period: partnerStatements.period,
      issuedAt: partnerStatements.issuedAt,
      closingMinor: partnerStatements.closingMinor,
    })
    .from(partnerStatements)
    .where(eq(partnerStatements.partnerId, partnerId))
    .orderBy(desc(partnerStatements.period));
}

/** One statement as it was issued. */
export async function findStatement(db: Database, id: string) {
  const [found] = await db.select().from(partnerStatements).where(eq(partnerStatements.id, id));
  return found ?? null;
}

/** The longest "Payment instructions" the Partners page takes. */
const INSTRUCTIONS_MAX = 1_000;

/** How partners pay, as the operator wrote it on the Partners page; "" until then. */
export async function paymentInstructions(db: Database): Promise<string> {
  const [row] = await db
    .select({ text: ledgerSettings.paymentInstructions })
    .from(ledgerSettings)
    .where(eq(ledgerSettings.id, 1));
  return row?.text ?? "";
}

/** "Save payment instructions": a few lines (blank lines kept, each trimmed), or why not. */
export async function setPaymentInstructions(
  db: Database,
  text: string,
): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trim());
  const cleaned = lines.join("\n").trim();
  if (cleaned.length > INSTRUCTIONS_MAX) {
    return {
      ok: false,
      error: `Payment instructions can be at most ${INSTRUCTIONS_MAX.toLocaleString("en-US")} characters.`,
    };
  }
  await db
    .insert(ledgerSettings)
    .values({ id: 1, paymentInstructions: cleaned })
    .onConflictDoUpdate({ target: ledgerSettings.id, set: { paymentInstructions: cleaned } });
  return { ok: true, text: cleaned };
}

const DAY_MS = 86_400_000;

/** A statement's issue date and due date (STATEMENT_DUE_DAYS after it), as days in OPERATOR_TIME_ZONE. */
function statementDates(issuedAt: Date, settings: { dueDays: number; timeZone: string }) {
  return {
    issued: formatDate(issuedAt, settings.timeZone),
    due: formatDate(new Date(issuedAt.getTime() + settings.dueDays * DAY_MS), settings.timeZone),
  };
}

/**
 * A statement as its partner reads it: the frozen CSV's rows, with the issue date and the due date (STATEMENT_DUE_DAYS
 * after the issue date, in OPERATOR_TIME_ZONE) after its period, and each amount with its currency's sign ("$25.50",
 * "-$45.50"), and the payment instructions. Both dates come from the issue date, so a statement issued before due dates were printed reads the same.
 */
export function statementView(
  statement: { number: number | string; issuedAt: Date; csv: string },
  settings: { dueDays: number; timeZone: string; paymentInstructions: string },
) {
  const rows = statementRows(statement.csv);
  const blank = rows.findIndex((row) => row.length === 0);
  const summary = rows.slice(0, blank < 0 ? rows.length : blank);
  const [headings = [], ...entries] = blank < 0 ? [] : rows.slice(blank + 1);
  const currency = summary.find(([label]) => label === "Currency")?.[1] ?? "USD";
  const money = new Intl.NumberFormat("en-US", { style: "currency", currency });
  const { issued, due } = statementDates(statement.issuedAt, settings);
  const period = summary.findIndex(([label]) => label === "Period");
  const dated: [string, string][] = summary.map(([label = "", value = ""]) => [label, value]);
  dated.splice(period < 0 ? dated.length : period + 1, 0, ["Issued", issued], ["Due", due]);
  return {
    number: statement.number,
    /** How to pay as it reads now, so that changed bank details reach every statement still open. */
    paymentInstructions: settings.paymentInstructions,
    summary: dated,
    headings,
    entries: entries.map((row) =>
      row.map((cell, column) =>
        column === row.length - 1 && /^-?\d+(\.\d+)?$/.test(cell) ? money.format(Number(cell)) : cell,
      ),
    ),
  };
}

/** The rows of a statement's CSV, for its printable page (the CSV is the statement's one frozen form). */
export function statementRows(csv: string): string[][] {
  const rows: string[][] = [];
  for (const line of csv.split("\r\n")) {
    if (line === "") {
      if (rows.length) rows.push([]);
      continue;
    }
    const cells: string[] = [];
    // Every cell follows a comma, the first one too: an empty first cell is still a cell.
    for (const match of `,${line}`.matchAll(/,(?:"((?:[^"]|"")*)"|([^,]*))/g)) {
      const cell = match[1] !== undefined ? match[1].replace(/""/g, '"') : (match[2] ?? "");
      cells.push(cell.startsWith("'") && /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);
    }
    rows.push(cells);
  }
  while (rows.length && rows.at(-1)!.length === 0) rows.pop();
  return rows;
}
