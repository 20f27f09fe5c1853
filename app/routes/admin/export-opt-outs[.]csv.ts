import type { Route } from "./+types/export-opt-outs[.]csv";
import { csvDownload } from "~/server/console/csv-download.server.ts";
import { requireOperator } from "~/server/console/operator.server.ts";
import { optOutRequestsCsv } from "~/server/leads/exports.server.ts";

/** Every opt-out request as CSV, the same columns as `npm run leads -- export opt-outs`. */
export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return csvDownload(await optOutRequestsCsv(context.services.db), "opt-outs");
}
