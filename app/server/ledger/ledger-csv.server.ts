import { and, asc, gte, lt, sql } from "drizzle-orm";
import { wallClock, zonedInstant } from "../../lib/operator-time.ts";
import type { Database } from "../db/index.server.ts";
import { csvCell } from "../leads/index.server.ts";
import { minorToDecimal } from "./money.server.ts";
import { ledgerEntries } from "./schema.server.ts";

/**
 * "Download ledger (CSV)" for the accountant: every partner's entries recorded in a range of months (in
 * OPERATOR_TIME_ZONE, as the statements count them), a partner at a time, each with its running balance. The first
 * three columns are the ones QuickBooks Online's bank upload reads (Date as MM/DD/YYYY, Description, a signed
 * Amount); Xero's statement import maps Date, Amount, Description, Partner (its Payee) and Entry ID (its Reference).
 * Amounts are plain numbers, negative ones too, so a spreadsheet sums them.
 */

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** The longest range one file covers. */
const MAX_MONTHS = 36;
const KIND_LABELS = { charge: "Charge", credit: "Credit", payment: "Payment", adjustment: "Adjustment" } as const;
const HEADINGS = ["Date", "Description", "Amount", "Partner", "Kind", "Job", "Running balance", "Entry ID"];

export interface LedgerRange {
  /** The first month, "2026-11". */
  from: string;
  /** The last month, included. */
  to: string;
}

const monthIndex = (month: string) => {
  const [, year, number] = MONTH.exec(month)!;
  return Number(year) * 12 + Number(number) - 1;
};
const monthOf = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;

/** The month before the one `now` is in, in the zone: the default range. */
export function lastMonth(now: Date, timeZone: string): string {
  const { year, month } = wallClock(now, timeZone);
  return monthOf(year * 12 + month - 2);
}

/** `from` and `to` (YYYY-MM, `to` defaulting to `from`), in order, at most 36 months; or what is wrong. */
export function parseLedgerRange(
  query: URLSearchParams,
): { ok: true; range: LedgerRange } | { ok: false; error: string } {
  const from = query.get("from") ?? "";
  const to = query.get("to") || from;
  if (!MONTH.test(from) || !MONTH.test(to) || Number(from.slice(0, 4)) < 2000) {
    return { ok: false, error: "Choose the months as YYYY-MM, such as 2026-11." };
  }
  const months = monthIndex(to) - monthIndex(from) + 1;
  if (months < 1) return { ok: false, error: "The first month must not be after the last." };
  if (months > MAX_MONTHS) return { ok: false, error: `Choose at most ${MAX_MONTHS} months.` };
  return { ok: true, range: { from, to } };
}

const usDate = (instant: Date, timeZone: string) => {
  const { year, month, day } = wallClock(instant, timeZone);
  return `${String(month).padStart(2, "0")}/${String(day).padStart(2, "0")}/${year}`;
};

/** The range's entries as CSV, partners by name, each partner's entries in the order recorded. */
export async function ledgerCsv(
  db: Database,
  range: LedgerRange,
  settings: { timeZone: string; currency: string; partnerNames: Map<string, string> },
): Promise<string> {
  const startsAt = zonedInstant(`${range.from}-01`, 0, settings.timeZone);
  const endsAt = zonedInstant(`${monthOf(monthIndex(range.to) + 1)}-01`, 0, settings.timeZone);
  const [entries, openings] = await Promise.all([
    db
      .select()
      .from(ledgerEntries)
      .where(and(gte(ledgerEntries.recordedAt, startsAt), lt(ledgerEntries.recordedAt, endsAt)))
      .orderBy(asc(ledgerEntries.partnerId), asc(ledgerEntries.recordedAt), asc(ledgerEntries.id)),
    db
      .select({
        partnerId: ledgerEntries.partnerId,
        balance: sql`sum(${ledgerEntries.amountMinor})::bigint`.mapWith(Number),
      })
      .from(ledgerEntries)
      .where(lt(ledgerEntries.recordedAt, startsAt))
      .groupBy(ledgerEntries.partnerId),
  ]);
  const opening = new Map(openings.map((row) => [row.partnerId, row.balance]));
  const byPartner = new Map<string, typeof entries>();
  for (const entry of entries) {
    const partnerEntries = byPartner.get(entry.partnerId);
    if (partnerEntries) partnerEntries.push(entry);
    else byPartner.set(entry.partnerId, [entry]);
  }
  const nameOf = (partnerId: string) => settings.partnerNames.get(partnerId) ?? partnerId;
  const amount = (minor: number) => minorToDecimal(minor, settings.currency);
  const lines = [HEADINGS];
  for (const partnerId of [...byPartner.keys()].sort((a, b) => nameOf(a).localeCompare(nameOf(b)))) {
    let balance = opening.get(partnerId) ?? 0;
    for (const entry of byPartner.get(partnerId)!) {
      balance += entry.amountMinor;
      const job = [entry.service, entry.zip].filter(Boolean).join(" · ");
      const details = [job, entry.method, entry.reference, entry.note].filter(Boolean).join(" · ");
      lines.push([
        usDate(entry.recordedAt, settings.timeZone),
        [KIND_LABELS[entry.kind], nameOf(partnerId), details].filter(Boolean).join(" · "),
        amount(entry.amountMinor),
        nameOf(partnerId),
        KIND_LABELS[entry.kind],
        job,
        amount(balance),
        entry.id,
      ]);
    }
  }
  return lines.map((line) => line.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
