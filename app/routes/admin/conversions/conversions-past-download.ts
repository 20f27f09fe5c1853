import { data } from "react-router";
import type { Route } from "./+types/conversions-past-download";
import { fileName } from "./conversions-download.ts";
import { isRowId } from "~/lib/row-id.ts";
import { findDownload } from "~/server/conversions/index.server.ts";
import { csvDownload, requireOperator } from "~/server/console/index.server.ts";

/** A past conversions download, exactly as it was first downloaded. */
export async function loader({ context, params }: Route.LoaderArgs) {
  requireOperator(context);
  const download = isRowId(params.id) ? await findDownload(context.services.db, params.id) : null;
  if (!download) throw data(null, { status: 404 });
  return csvDownload(download.body, fileName[download.platform], download.createdAt);
}
