import type { Route } from "./+types/export-leads[.]csv";
import { csvDownload, requireOperator } from "~/server/console/index.server.ts";
import { contactRequestsCsv } from "~/server/leads/index.server.ts";
import { leadTextCountColumns } from "~/server/texts/index.server.ts";

/** Every contact request as CSV, the same columns as `npm run leads -- export`, streamed a batch of rows at a time. */
export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return csvDownload(contactRequestsCsv(context.services, await leadTextCountColumns(context.services.db)), "leads");
}
