/** What the dashboard's page and its server code share: the ranges offered and how the rate is worked out. */

/** The ranges the dashboard offers, in days ending today (UTC). */
export const dashboardRanges = [7, 30, 90] as const;
export type DashboardRange = (typeof dashboardRanges)[number];

/** (calls + leads) per 100 page views, one decimal; null without views. */
export function conversionsPer100Views(figures: { views: number; calls: number; leads: number }): number | null {
  return figures.views === 0 ? null : Math.round(((figures.calls + figures.leads) * 1000) / figures.views) / 10;
}
