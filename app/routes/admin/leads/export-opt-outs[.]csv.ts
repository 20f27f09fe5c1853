import type { Route } from "./+types/export-opt-outs[.]csv";
import { csvDownload, requireOperator } from "~/server/console/index.server.ts";
import { optOutRequestsCsv } from "~/server/leads/index.server.ts";

/** Every opt-out request as CSV, the same columns as `npm run leads -- export opt-outs`. */
export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return csvDownload(await optOutRequestsCsv(context.services.db), "opt-outs");
}
