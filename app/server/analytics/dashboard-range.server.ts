import { dashboardRanges, type DashboardRange } from "~/lib/dashboard-figures.ts";

/** The range a dashboard or CSV request asks for (`?days=7|30|90`); 30 when absent, null when not one of those. */
export function parseDashboardRange(searchParams: URLSearchParams): DashboardRange | null {
  const days = searchParams.get("days");
  if (days === null || days === "") return 30;
  return dashboardRanges.find((range) => String(range) === days) ?? null;
}
