import type { Route } from "./+types/export-calls[.]csv";
import { csvDownload } from "~/server/console/csv-download.server.ts";
import { requireOperator } from "~/server/console/operator.server.ts";
import { callsCsv } from "~/server/calls/index.server.ts";

/** Every call as CSV, with the visit's attribution, safe to open in any spreadsheet. */
export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return csvDownload(await callsCsv(context.services.db), "calls");
}
