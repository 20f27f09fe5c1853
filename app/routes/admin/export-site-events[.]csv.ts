import { data } from "react-router";
import type { Route } from "./+types/export-site-events[.]csv";
import { parseDashboardRange } from "~/server/analytics/dashboard-range.server.ts";
import { dailyAggregates } from "~/server/analytics/dashboard.server.ts";
import { csvDownload } from "~/server/console/csv-download.server.ts";
import { requireOperator } from "~/server/console/operator.server.ts";
import { csvCell } from "~/server/leads/exports.server.ts";

const COLUMNS = ["day", "path", "kind", "placement", "source", "medium", "campaign", "count"] as const;

/** The daily aggregates of page views and calls for the dashboard's range, as CSV safe to open in a spreadsheet. */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context);
  const range = parseDashboardRange(new URL(request.url).searchParams);
  if (range === null) throw data("Choose 7, 30 or 90 days.", { status: 400 });
  const rows = await dailyAggregates(context.services.db, range);
  const lines = [
    COLUMNS.join(","),
    ...rows.map((row) => COLUMNS.map((column) => csvCell(String(row[column]))).join(",")),
  ];
  return csvDownload(`${lines.join("\r\n")}\r\n`, `site-events-${range}-days`);
}
