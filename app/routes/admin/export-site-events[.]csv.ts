import { data } from "react-router";
import type { Route } from "./+types/export-site-events[.]csv";
import { parseDashboardRange, dailyAggregates } from "~/server/analytics/index.server.ts";
import { csvDownload, requireOperator } from "~/server/console/index.server.ts";
import { csvCell } from "~/server/leads/index.server.ts";

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
