import { data } from "react-router";
import type { Route } from "./+types/export-site-events[.]csv";
import { parseDashboardRange, dailyAggregatesCsv } from "~/server/analytics/index.server.ts";
import { csvDownload, requireOperator } from "~/server/console/index.server.ts";

/** The daily aggregates of page views and calls for the dashboard's range, as CSV safe to open in a spreadsheet. */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context);
  const range = parseDashboardRange(new URL(request.url).searchParams);
  if (range === null) throw data("Choose 7, 30 or 90 days.", { status: 400 });
  return csvDownload(
    dailyAggregatesCsv(context.services.db, range, context.operatorTimeZone),
    `site-events-${range}-days`,
  );
}
