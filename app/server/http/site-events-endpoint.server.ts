import type { IncomingMessage, ServerResponse } from "node:http";
import { isbot } from "isbot";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { parseSiteEvent, SITE_EVENT_BODY_LIMIT_BYTES, type SiteEventCounter } from "../analytics/index.server.ts";
import { log } from "../log.server.ts";
import { clientKey } from "../limits/index.server.ts";
import { readBodyText } from "./request-body.server.ts";
import { requestIdOf } from "./request-log.server.ts";

interface SiteEventsEndpointOptions {
  counter: SiteEventCounter;
  /** Events one address may send per minute: this endpoint's own limit, apart from the forms'. */
  perMinute: number;
  /** The client's address, taken as Express takes it behind the configured proxies. */
  clientIp(req: IncomingMessage): string;
}

const ACCEPTED_TYPES = new Set(["text/plain", "application/json"]);

/**
 * POST one page view or call click (docs/decisions/070). Answers 204 with no body; bots and prefetches get the
 * same answer and are not counted. The address is used only for the in-memory per-IP limit and never stored.
 * sendBeacon sends a string as text/plain, which needs no CORS preflight, so both JSON and plain text are read.
 *
 * A plain Node handler, not Express's: a page sends one event per view and per call, many times the number of
 * leads, and Express's own work per request cost about twice what counting one does (docs/decisions/071).
 * The server has logged the request, set the security headers and refused cross-site posts before this is called.
 */
export function siteEventsEndpoint(options: SiteEventsEndpointOptions) {
  const limiter = new RateLimiterMemory({ points: options.perMinute, duration: 60 });
  const count = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.setHeader("Cache-Control", "no-store");
    if (req.method !== "POST") return answer(res, 405, { Allow: "POST" });
    if (isPrefetch(req) || isbot(req.headers["user-agent"] ?? "")) return answer(res, 204);
    try {
      await limiter.consume(clientKey(options.clientIp(req)));
    } catch {
      return answer(res, 429, { "Retry-After": "60" });
    }
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (!ACCEPTED_TYPES.has(type)) return answer(res, 415);
    const text = await readBodyText({ header: (name) => headerOf(req, name), body: req }, SITE_EVENT_BODY_LIMIT_BYTES);
    if (text === "too-large") return answer(res, 413, { Connection: "close" });
    const parsed = parseSiteEvent(text === "not-utf8" ? "" : text);
    if (!parsed.ok) return answer(res, parsed.status, { "Content-Type": "text/plain; charset=utf-8" }, parsed.error);
    if (!options.counter.add(parsed.event)) return answer(res, 503, { "Retry-After": "10" });
    answer(res, 204);
  };
  return (req: IncomingMessage, res: ServerResponse): void => {
    count(req, res).catch((error: unknown) => {
      const requestId = requestIdOf(res);
      // Reading the body fails when the client goes away mid-way: nothing was counted, and nobody is left to answer.
      if (req.socket.destroyed) return void log.info({ requestId }, "client disconnected before its request was read");
      log.error({ requestId, err: error }, "unhandled error");
      if (!res.headersSent) answer(res, 500);
    });
  };
}

function answer(res: ServerResponse, status: number, headers: Record<string, string> = {}, body?: string): void {
  res.writeHead(status, headers);
  res.end(body);
}

/** Speculative loads say so: Chrome sends Sec-Purpose, older browsers Purpose or X-Moz. */
function isPrefetch(req: IncomingMessage): boolean {
  return [req.headers["sec-purpose"], req.headers.purpose, req.headers["x-moz"]].some(
    (value) => typeof value === "string" && value.toLowerCase().includes("prefetch"),
  );
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === "string" ? value : null;
}
