import type { Route } from "./+types/sw[.]js";
import workerSource from "./console-worker.js?raw";
import { requireOperator } from "~/server/console/index.server.ts";

/**
 * The console's service worker script, served from /admin/ so that its scope is the console alone, and from
 * the server rather than the build's public files, which hold nothing of the console.
 */
export function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return new Response(workerSource, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
