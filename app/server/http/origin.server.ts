import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { isUnsafeMethod } from "./methods.server.ts";

/**
 * Whether a POST may come from where the browser says it comes from: this host, the site's
 * public URL (a proxy may rewrite Host), or an origin the operator allowed. Requests without
 * Origin (curl, server-to-server) carry no ambient credentials and pass.
 */
export function isAllowedOrigin(origin: string | null, requestHost: string, allowedOrigins: string[]): boolean {
  if (origin === null) return true;
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return false;
  }
  return originUrl.host === requestHost || allowedOrigins.includes(originUrl.origin);
}

/**
 * The one decision whether an unsafe request comes from our site, for Express and for the event counter
 * alike: answers a cross-site one with a 403 and returns true; returns false for every other request.
 */
export function refusedAsCrossSite(req: IncomingMessage, res: ServerResponse, trustedOrigins: string[]): boolean {
  const origin = req.headers.origin;
  if (!isUnsafeMethod(req.method ?? "GET") || isAllowedOrigin(origin ?? null, req.headers.host ?? "", trustedOrigins)) {
    return false;
  }
  res.statusCode = 403;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.end(JSON.stringify({ error: "Requests from other sites are not accepted.", fieldErrors: {} }));
  return true;
}

/**
 * Whether an unsafe console request proves it comes from the console's own pages: its Origin is this host
 * or the site's public origin; without Origin, its Referer is; without either, the browser says
 * `Sec-Fetch-Site: same-origin`. Other origins the operator allowed for the lead endpoint prove nothing here.
 * A request that proves nothing (a client that sends none of the three) is refused, so the console never
 * depends on one header that a browser, an extension or a proxy might drop.
 */
export function provesSameOrigin(
  headers: { origin?: string; referer?: string; "sec-fetch-site"?: string | string[] },
  requestHost: string,
  siteOrigin: string,
): boolean {
  const sameOrigin = (url: string) => {
    try {
      const parsed = new URL(url);
      return parsed.origin !== "null" && (parsed.host === requestHost || parsed.origin === siteOrigin);
    } catch {
      return false;
    }
  };
  if (headers.origin !== undefined) return sameOrigin(headers.origin);
  if (headers.referer !== undefined) return sameOrigin(headers.referer);
  return headers["sec-fetch-site"] === "same-origin";
}

/** Answers an unsafe console request that does not prove it is same-origin with a 403, and returns true. */
function refusedAsNotSameOrigin(req: IncomingMessage, res: ServerResponse, siteOrigin: string): boolean {
  if (!isUnsafeMethod(req.method ?? "GET") || provesSameOrigin(req.headers, req.headers.host ?? "", siteOrigin)) {
    return false;
  }
  res.statusCode = 403;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end("Forbidden: the console accepts changes only from its own pages.");
  return true;
}

/** Cross-site unsafe requests are refused with a 403 before any form or the API sees them. */
export function refuseCrossSite(trustedOrigins: string[]) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (!refusedAsCrossSite(req, res, trustedOrigins)) next();
  };
}

/** The console asks more: an unsafe request must prove it comes from the console's own pages. */
export function refuseConsoleChangesFromElsewhere(siteOrigin: string, isConsolePath: (path: string) => boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isConsolePath(req.path) || !refusedAsNotSameOrigin(req, res, siteOrigin)) next();
  };
}
