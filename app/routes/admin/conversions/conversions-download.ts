import { data } from "react-router";
import type { Route } from "./+types/conversions-download";
import { adPlatforms, createDownload, readBoundedForm } from "~/server/conversions/index.server.ts";
import { csvDownload, requireOperator } from "~/server/console/index.server.ts";

/** "Download Google Ads conversions (CSV)" and the Microsoft one: a new file of the conversions not yet downloaded. */
export async function action({ context, request }: Route.ActionArgs) {
  requireOperator(context);
  const form = await readBoundedForm(request, 1024).catch(() => null);
  const chosen = form instanceof FormData ? form.get("platform") : null;
  const platform = adPlatforms.find((known) => known === chosen);
  if (!platform) throw data("Choose Google Ads or Microsoft Advertising.", { status: 400 });
  const download = await createDownload(context.services.db, platform, context.services.conversions);
  return csvDownload(download.body, fileName[platform], download.createdAt);
}

export const fileName = { google: "google-ads-conversions", microsoft: "microsoft-ads-conversions" } as const;
