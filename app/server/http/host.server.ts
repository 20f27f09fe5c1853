import type { NextFunction, Request, Response } from "express";

// A host name, IPv4 address or bracketed IPv6 address, with an optional port.
const HOST_HEADER = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::\d{1,5})?$/i;

/**
 * Refuses a request whose Host (or, behind a trusted proxy, X-Forwarded-Host) is not a host name,
 * with a 400, before anything builds a URL from it: a malformed one would otherwise throw deep inside
 * request handling and answer 500.
 */
export function requireWellFormedHost(req: Request, res: Response, next: NextFunction): void {
  const hosts = [req.get("host"), req.app.enabled("trust proxy") ? req.get("x-forwarded-host") : undefined];
  if (hosts.every((host) => host === undefined || HOST_HEADER.test(host.split(",")[0]!.trim()))) return next();
  res.status(400).type("text/plain").send("Bad Request: malformed Host header.");
}
