import { localDate } from "./operator-time.ts";

/**
 * What the dashboard's page and its server code share: the ranges offered, how the rate is worked out, and how many
 * rows a table shows; and, for the modules whose figures it shows (site counts, calls, leads), when a day is over
 * and how the figures read in parts are summed.
 */

/** The ranges the dashboard offers, in the operator's days (OPERATOR_TIME_ZONE) ending today. */
export const dashboardRanges = [7, 30, 90] as const;
export type DashboardRange = (typeof dashboardRanges)[number];

/** (calls + leads) per 100 page views, one decimal; null without views. */
export function conversionsPer100Views(figures: { views: number; calls: number; leads: number }): number | null {
  return figures.views === 0 ? null : Math.round(((figures.calls + figures.leads) * 1000) / figures.views) / 10;
}

/**
 * Rows each table shows, in its order (the most active first; the most cost first for campaigns); the rest are summed
 * in one row after them, so that a table stays a few kilobytes whatever is stored (decision 106).
 */
export const DASHBOARD_TABLE_ROWS = 50;

/** The row that sums a table's rows past its first DASHBOARD_TABLE_ROWS. */
export interface RestRow<Figures> {
  rows: number;
  figures: Figures;
}

/** A table's first rows and, when there are more, their sum. */
export interface TopRows<Row, Figures> {
  top: Row[];
  rest: RestRow<Figures> | null;
}

/** The first DASHBOARD_TABLE_ROWS of rows in their order, and the sum of each of `figures` over the others. */
export function topRows<Row extends Record<K, number>, K extends string>(
  rows: Row[],
  figures: K[],
): TopRows<Row, Record<K, number>> {
  const rest = rows.slice(DASHBOARD_TABLE_ROWS);
  if (rest.length === 0) return { top: rows, rest: null };
  const sums = Object.fromEntries(figures.map((figure) => [figure, rest.reduce((sum, row) => sum + row[figure], 0)]));
  return { top: rows.slice(0, DASHBOARD_TABLE_ROWS), rest: { rows: rest.length, figures: sums as Record<K, number> } };
}

const DAY_MS = 86_400_000;
/**
 * A day's figures are written as they come, and a little past its end (a call's outcome, a counter's last write);
 * an hour after its end a day counts as over, which allows for the server's and the database's clocks to differ by
 * less than that.
 */
const DAY_OVER_AFTER_MS = 3_600_000;

/**
 * The instant the first UTC day still open began: the dashboard keeps the calls and leads before it while the
 * database says they are unchanged, and reads those since on each view (the database's triggers look at the UTC day
 * of a change; an operator's day that straddles this instant has its two parts summed).
 */
export function firstOpenDayStart(now = Date.now()): number {
  const sinceOpen = now - DAY_OVER_AFTER_MS;
  return sinceOpen - (sinceOpen % DAY_MS);
}

/**
 * The first of the operator's days still open (yyyy-MM-dd in `timeZone`): the site's counts are kept per operator
 * day, and the dashboard keeps those of the days before it while the database says they are unchanged.
 */
export function firstOpenDay(timeZone: string, now = Date.now()): string {
  return localDate(new Date(now - DAY_OVER_AFTER_MS), timeZone);
}

/**
 * Rows of the same groupings read in parts (the days that are over and those still open) as one: rows with the same
 * key have each of `figures` summed, the others are kept as they are.
 */
export function summedByKey<Row extends Record<K, number>, K extends string>(
  rows: readonly Row[],
  key: (row: Row) => readonly unknown[],
  figures: readonly K[],
): Row[] {
  const summed = new Map<string, Row>();
  for (const row of rows) {
    const id = JSON.stringify(key(row));
    const held = summed.get(id);
    if (held === undefined) {
      summed.set(id, row);
      continue;
    }
    const total = { ...held };
    for (const figure of figures) (total as Record<K, number>)[figure] = held[figure] + row[figure];
    summed.set(id, total);
  }
  return [...summed.values()];
}

/** A figure against the same figure of the period before: "+12%", "-5%", "no change", or "new" from nothing. */
export function changeAgainst(now: number, before: number): string {
  if (now === before) return "no change";
  if (before === 0) return "new";
  const percent = Math.round(((now - before) * 100) / Math.abs(before));
  return `${percent > 0 ? "+" : ""}${percent}%`;
}
