import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isPublicAddress } from "./public-address.server.ts";
import type { OutboundRule } from "./outbound-url.server.ts";

/** What the called server answered: its status and headers, and its body up to 64 KB (the rest is not kept). */
export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const RESPONSE_LIMIT_BYTES = 64 * 1024;

/** Thrown when a host resolves to an address the rule refuses, at the moment of connecting. */
export class RefusedAddress extends Error {}

/** DNS as the connection sees it, refusing every address that is not public (unless the rule allows private ones). */
function guardedLookup(rule: OutboundRule): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, found) => {
      if (error) return callback(error, "", 0);
      const addresses = found as unknown as LookupAddress[];
      const allowed = rule.allowPrivate ? addresses : addresses.filter((entry) => isPublicAddress(entry.address));
      if (allowed.length === 0) {
        return callback(new RefusedAddress(`${hostname} resolves to an address that is not public`), "", 0);
      }
      if ((options as LookupOptions).all) return callback(null, allowed as never);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/**
 * A request to a URL an operator gave (a push service, a webhook): the connection is made only to a public
 * address, checked when DNS answers for this very connection, so a name that pointed elsewhere when it was given
 * (DNS rebinding) cannot reach this machine or its network. Redirects are not followed.
 */
export function sendOutbound(
  url: URL,
  options: {
    method: "POST";
    headers: Record<string, string>;
    body: Uint8Array | string;
    signal?: AbortSignal;
    /**
     * The whole answer, status line, headers and body, must be in within this long from the start: a server that
     * answers at once and then trickles its body a byte at a time is cut off at this deadline all the same.
     */
    timeoutMs: number;
    rule: OutboundRule;
  },
): Promise<OutboundResponse> {
  const send = url.protocol === "http:" ? httpRequest : httpsRequest;
  if (url.protocol === "http:" && !options.rule.allowPrivate) return Promise.reject(new RefusedAddress("plain http"));
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (!options.rule.allowPrivate && /^[\d.]+$|:/.test(literal) && !isPublicAddress(literal)) {
    return Promise.reject(new RefusedAddress(`${literal} is not a public address`));
  }
  return new Promise((resolve, reject) => {
    const request = send(url, {
      method: options.method,
      headers: { ...options.headers, "Content-Length": String(Buffer.byteLength(options.body)) },
      lookup: guardedLookup(options.rule),
      signal: options.signal,
    });
    const deadline = setTimeout(
      () => request.destroy(new Error(`no whole answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on("close", () => clearTimeout(deadline));
    request.on("error", reject);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= RESPONSE_LIMIT_BYTES) chunks.push(chunk);
      });
      response.on("error", reject);
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    request.end(options.body);
  });
}
