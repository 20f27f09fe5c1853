import type { Route } from "./+types/conversions-scheduled";
import { scheduledFetch } from "~/server/conversions/index.server.ts";
import { clientKey } from "~/server/limits/index.server.ts";
import { csvDownload } from "~/server/console/index.server.ts";

/**
 * An ad platform's scheduled fetch of its conversions file, with the username and password made on the Scheduled
 * fetch page (HTTP Basic): the conversions no earlier file for the platform held. A wrong or missing password gets
 * 401 and no word of what was wrong.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { db, run, conversions } = context.services;
  const fetched = await scheduledFetch(
    db,
    run,
    {
      platform: params.file.replace(/\.csv$/, ""),
      authorization: request.headers.get("authorization"),
      clientKey: clientKey(context.clientIp),
    },
    conversions,
  );
  if (fetched.kind === "limited") {
    return new Response("Too many requests.\n", {
      status: 429,
      headers: { "Retry-After": String(fetched.retryAfterSeconds), "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  if (fetched.kind === "refused") {
    return new Response("Unauthorized.\n", {
      status: 401,
      headers: {
        "WWW-Authenticate": 'Basic realm="Conversions", charset="UTF-8"',
        "Content-Type": "text/plain; charset=utf-8",
      },
    });
  }
  return csvDownload(fetched.body, `${fetched.platform}-conversions`, fetched.createdAt);
}
