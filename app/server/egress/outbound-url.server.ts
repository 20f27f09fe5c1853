import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPublicAddress } from "./public-address.server.ts";

export interface OutboundRule {
  /**
   * Lifts the address rule, and lets plain http through, for development and tests whose services run on this
   * machine. Never set in production.
   */
  allowPrivate: boolean;
}

type OutboundUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2_048;

/**
 * Whether the server may call `url` on an operator's say (a push service, a webhook): https only, to a host whose
 * every address, as DNS answers now, is public. Checked when the URL is given; the connection checks again (see
 * `sendOutbound`), since DNS may answer differently later.
 */
export async function checkOutboundUrl(text: string, rule: OutboundRule): Promise<OutboundUrlCheck> {
  if (text.length > MAX_URL_LENGTH)
    return { ok: false, reason: `The URL is longer than ${MAX_URL_LENGTH} characters.` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "That is not a URL." };
  }
  const schemes = rule.allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) return { ok: false, reason: "The URL must start with https://." };
  if (url.username || url.password) return { ok: false, reason: "The URL must not carry a user name or password." };
  if (rule.allowPrivate) return { ok: true, url };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (/(^|\.)localhost\.?$/i.test(host))
    return { ok: false, reason: "The URL must be on a public address, not this machine." };
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((found) => found.address);
  } catch {
    return { ok: false, reason: `The host ${host} could not be found.` };
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    return {
      ok: false,
      reason: "The URL must be on a public address: not this machine, a private network or a link-local address.",
    };
  }
  return { ok: true, url };
}
