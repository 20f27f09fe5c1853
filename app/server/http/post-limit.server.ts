import type { NextFunction, Request, Response } from "express";
import type { PublicSiteConfig } from "~/config/site.ts";
import type { RateLimitResult } from "../limits/index.server.ts";
import { log } from "../log.server.ts";
import { clientKey } from "../limits/index.server.ts";
import { isUnsafeMethod } from "./methods.server.ts";
import { requestIdOf } from "./request-log.server.ts";
import { tooManyRequestsPage } from "./too-many-requests.server.ts";

/**
 * Every unsafe request counts against the per-minute limit per client, shared by all instances through the
 * database. Over it: 429 with Retry-After, a page for a form posted without JavaScript, JSON for the API.
 */
export function limitUnsafeRequests(
  countPost: (clientKey: string) => Promise<RateLimitResult>,
  siteConfig: PublicSiteConfig,
) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isUnsafeMethod(req.method)) return next();
    let limit: RateLimitResult;
    try {
      limit = await countPost(clientKey(req.ip ?? "unknown"));
    } catch (error) {
      // The database does not answer: the request goes on, and the form or API that needs the database
      // answers 503 in its own words (the form limit is counted in the same statement as the lead).
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ requestId: requestIdOf(res) }, `POST limit not counted, database unavailable: ${reason}`);
      return next();
    }
    if (limit.allowed) return next();
    res.set("Retry-After", String(limit.retryAfterSeconds)).status(429);
    if (req.accepts(["json", "html"]) === "html") res.type("html").send(tooManyRequestsPage(siteConfig, req.path));
    else res.json({ error: "Too many requests. Please try again later.", fieldErrors: {} });
  };
}
