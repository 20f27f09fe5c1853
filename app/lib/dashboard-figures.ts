/**
 * What the dashboard's page and its server code share: the ranges offered, how the rate is worked out, and how many
 * rows a table shows.
 */

/** The ranges the dashboard offers, in days ending today (UTC). */
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
