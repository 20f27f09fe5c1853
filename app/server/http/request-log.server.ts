import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { SITE_EVENTS_ENDPOINT } from "~/lib/site-events.ts";
import { withoutEmailAddresses } from "../log.server.ts";

// A client's or proxy's request id is kept only when it cannot carry anything else (no spaces, no
// control characters, bounded length); otherwise the server makes one.
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const PROBE_PATHS = new Set(["/healthz", "/readyz"]);
const MAX_LOGGED_PATH = 200;

/**
 * One log line per request: request id (also sent back as X-Request-Id), method, path WITHOUT the query
 * string, status and duration. Never a header, body, IP or query string: they can hold personal data.
 * Health probes log at debug, since an orchestrator polls them every few seconds, and so do counted page
 * views and calls: a page view per visitor and page would be most of the log, and its cost under load.
 * Called first for every request, whether Express or the event counter answers it; returns the request id.
 */
export function logRequest(log: Logger, req: IncomingMessage, res: ServerResponse): string {
  const started = process.hrtime.bigint();
  const incoming = req.headers["x-request-id"];
  const requestId = typeof incoming === "string" && WELL_FORMED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", requestId);
  // The raw URL up to "?" is what the client asked for; mounted routers change Express's req.path later.
  const path = withoutEmailAddresses((req.url?.split("?")[0] ?? "").slice(0, MAX_LOGGED_PATH));
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
  return requestId;
}

/** logRequest as Express's first middleware; later handlers find the request id in res.locals. */
export function requestLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.locals.requestId = logRequest(log, req, res);
    next();
  };
}
