import type { Route } from "./+types/export-calls[.]csv";
import { csvDownload, requireOperator } from "~/server/console/index.server.ts";
import { callsCsv } from "~/server/calls/index.server.ts";

/** Every call as CSV, with the visit's attribution, safe to open in any spreadsheet, streamed a batch at a time. */
export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return csvDownload(callsCsv(context.services.db), "calls");
}
