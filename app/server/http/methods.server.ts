import type { NextFunction, Request, Response } from "express";
import { LEAD_ENDPOINT } from "~/lib/lead-schemas.ts";
import { pageKey } from "./prerendered-pages.server.ts";

const PAGE_METHODS = ["GET", "HEAD", "POST"];
// OPTIONS answers the CORS preflight of a browser script on an allowed origin.
const LEAD_ENDPOINT_METHODS = ["POST", "OPTIONS"];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Methods that may change something: the POST limit and the cross-site check apply to all of them. */
export function isUnsafeMethod(method: string): boolean {
  return !SAFE_METHODS.has(method);
}

/** The lead endpoint's path, matched as Express routes match (any case, optional trailing slash). */
function isLeadEndpoint(path: string): boolean {
  return pageKey(path).toLowerCase() === LEAD_ENDPOINT.toLowerCase();
}

/**
 * Pages take GET, HEAD and POST (a form without JavaScript); the lead endpoint takes POST and OPTIONS.
 * Anything else gets 405 with Allow, before it can reach a form action.
 */
export function allowOnlyKnownMethods(req: Request, res: Response, next: NextFunction): void {
  const leadEndpoint = isLeadEndpoint(req.path);
  const allowed = leadEndpoint ? LEAD_ENDPOINT_METHODS : PAGE_METHODS;
  if (allowed.includes(req.method)) return next();
  res.set({ Allow: allowed.join(", "), "Cache-Control": "no-store" }).status(405);
  if (leadEndpoint) res.json({ error: "Send a POST request with a JSON body.", fieldErrors: {} });
  else res.type("text/plain").send("Method Not Allowed");
}
