import type { Request, Response } from "express";
import { isbot } from "isbot";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { clientKey } from "../http/client-key.server.ts";
import { parseSiteEvent, SITE_EVENT_BODY_LIMIT_BYTES } from "./site-event.server.ts";
import type { SiteEventCounter } from "./site-event-counter.server.ts";

interface SiteEventsEndpointOptions {
  counter: SiteEventCounter;
  /** Events one address may send per minute: this endpoint's own limit, apart from the forms'. */
  perMinute: number;
}

const ACCEPTED_TYPES = new Set(["text/plain", "application/json"]);

/**
 * POST one page view or call click (docs/decisions/070). Answers 204 with no body; bots and prefetches get the
 * same answer and are not counted. Cross-site posts never get here: the server refuses them first. The address is used only for the in-memory per-IP limit and never stored.
 * sendBeacon sends a string as text/plain, which needs no CORS preflight, so both JSON and plain text are read.
 */
export function siteEventsEndpoint(options: SiteEventsEndpointOptions) {
  const limiter = new RateLimiterMemory({ points: options.perMinute, duration: 60 });
  return async (req: Request, res: Response) => {
    res.set("Cache-Control", "no-store");
    if (req.method !== "POST") return void res.set("Allow", "POST").status(405).end();
    if (isPrefetch(req) || isbot(req.get("user-agent") ?? "")) return void res.status(204).end();
    try {
      await limiter.consume(clientKey(req.ip ?? "unknown"));
    } catch {
      return void res.set("Retry-After", "60").status(429).end();
    }
    const type = (req.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!ACCEPTED_TYPES.has(type)) return void res.status(415).end();
    const text = await readSmallBody(req);
    if (text === undefined) return void res.set("Connection", "close").status(413).end();
    const parsed = parseSiteEvent(text);
    if (!parsed.ok) return void res.status(parsed.status).type("text").send(parsed.error);
    if (!options.counter.add(parsed.event)) return void res.set("Retry-After", "10").status(503).end();
    res.status(204).end();
  };
}

/** Speculative loads say so: Chrome sends Sec-Purpose, older browsers Purpose or X-Moz. */
function isPrefetch(req: Request): boolean {
  return [req.get("sec-purpose"), req.get("purpose"), req.get("x-moz")].some((value) =>
    value?.toLowerCase().includes("prefetch"),
  );
}

/** Past this, an oversized body is no longer read to its end: the connection is dropped instead. */
const DISCARD_LIMIT_BYTES = 64 * 1024;

/**
 * The body as UTF-8 text, or undefined past the limit (counted as bytes arrive; Content-Length may lie). An
 * oversized body is still read and dropped, up to a bound, so the client sees the 413 rather than a reset.
 */
async function readSmallBody(req: Request): Promise<string | undefined> {
  if (Number(req.get("content-length") ?? 0) > SITE_EVENT_BODY_LIMIT_BYTES) return undefined;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > DISCARD_LIMIT_BYTES) break;
    if (total <= SITE_EVENT_BODY_LIMIT_BYTES) chunks.push(chunk);
  }
  return total > SITE_EVENT_BODY_LIMIT_BYTES ? undefined : Buffer.concat(chunks).toString("utf8");
}
