import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { signedLinkRoute } from "~/content/site-pages.ts";
import { SITE_EVENTS_ENDPOINT } from "~/lib/site-events.ts";
import { withoutEmailAddresses } from "../log.server.ts";

// A client's or proxy's request id is kept only when it cannot carry anything else (no spaces, no
// control characters, bounded length); otherwise the server makes one.
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const PROBE_PATHS = new Set(["/healthz", "/readyz"]);
const MAX_LOGGED_PATH = 200;
const REQUEST_ID_HEADER = "X-Request-Id";
/** A texts thread's path holds the customer's phone number: only its route is logged. */
const CUSTOMER_THREAD = /^\/admin\/texts\/[^/]+$/i;
const CUSTOMER_THREAD_ROUTE = "/admin/texts/:number";

/** What is logged of a path: a signed link's and a customer's thread's route, or the path without email addresses. */
function loggedPath(asked: string): string {
  let decoded = asked;
  try {
    decoded = decodeURIComponent(asked);
  } catch {
    // A malformed escape is matched as it was written.
  }
  if (CUSTOMER_THREAD.test(decoded)) return CUSTOMER_THREAD_ROUTE;
  return signedLinkRoute(asked) ?? withoutEmailAddresses(asked.slice(0, MAX_LOGGED_PATH));
}

/**
 * One log line per request: request id (also sent back as X-Request-Id), method, path WITHOUT the query
 * string (for a signed link, its route without the token; for a texts thread, its route without the number), status and duration. Never a header, body, IP or
 * query string: they can hold personal data.
 * Health probes log at debug, since an orchestrator polls them every few seconds, and so do counted page
 * views and calls: a page view per visitor and page would be most of the log, and its cost under load.
 * Called first for every request, whoever answers it.
 */
export function logRequest(log: Logger, req: IncomingMessage, res: ServerResponse): void {
  const started = process.hrtime.bigint();
  const incoming = req.headers["x-request-id"];
  const requestId = typeof incoming === "string" && WELL_FORMED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, requestId);
  // The raw URL up to "?" is what the client asked for; mounted routers change Express's req.path later. A
  // signed link's path is its access, so only its route is logged.
  const asked = req.url?.split("?")[0] ?? "";
  const path = loggedPath(asked);
  res.once("close", () => {
    const line = {
      requestId,
      method: req.method,
      path,
      status: res.statusCode,
      durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
      ...(res.writableFinished ? {} : { aborted: true }),
    };
    if (res.statusCode >= 500) log.error(line, "request failed");
    else if (PROBE_PATHS.has(path)) log.debug(line, "probe");
    else if (path === SITE_EVENTS_ENDPOINT && res.statusCode === 204) log.debug(line, "counted");
    else log.info(line, "request");
  });
}

/** The id logRequest gave this request, for other log lines about it. */
export function requestIdOf(res: ServerResponse): string | undefined {
  return res.getHeader(REQUEST_ID_HEADER) as string | undefined;
}
