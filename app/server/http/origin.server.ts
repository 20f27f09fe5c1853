import type { IncomingMessage, ServerResponse } from "node:http";
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

/** Cross-site unsafe requests are refused with a 403 before any form or the API sees them. */
export function refuseCrossSite(trustedOrigins: string[]) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (!refusedAsCrossSite(req, res, trustedOrigins)) next();
  };
}
