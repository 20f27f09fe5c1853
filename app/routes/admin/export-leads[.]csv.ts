import type { Route } from "./+types/export-leads[.]csv";
import { csvDownload } from "~/server/console/csv-download.server.ts";
import { requireOperator } from "~/server/console/operator.server.ts";
import { contactRequestsCsv } from "~/server/leads/exports.server.ts";

/** Every contact request as CSV, the same columns as `npm run leads -- export`. */
export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return csvDownload(await contactRequestsCsv(context.services.db), "leads");
}
