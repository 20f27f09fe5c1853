import type { IncomingMessage, ServerResponse } from "node:http";

// A host name, IPv4 address or bracketed IPv6 address, with an optional port.
const HOST_HEADER = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::\d{1,5})?$/i;

/**
 * Refuses a request whose Host (or, behind a trusted proxy, X-Forwarded-Host) is not a host name,
 * with a 400, before anything builds a URL from it: a malformed one would otherwise throw deep inside
 * request handling and answer 500. Returns true when it has answered.
 */
export function refusedForMalformedHost(req: IncomingMessage, res: ServerResponse, behindProxy: boolean): boolean {
  const hosts = [req.headers.host, behindProxy ? req.headers["x-forwarded-host"] : undefined];
  const wellFormed = (host: string | string[] | undefined) =>
    host === undefined || (typeof host === "string" && HOST_HEADER.test(host.split(",")[0]!.trim()));
  if (hosts.every(wellFormed)) return false;
  res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
  res.end("Bad Request: malformed Host header.");
  return true;
}
