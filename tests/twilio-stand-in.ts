import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getExpectedTwilioSignature } from "twilio/lib/webhooks/webhooks.js";

/**
 * Twilio, as the site meets it: its REST API on loopback (HTTP Basic auth with the account SID and auth token,
 * recordings to fetch and delete), and its webhooks, signed with the twilio package's own algorithm.
 */

export const TEST_ACCOUNT_SID = "AC0123456789abcdef0123456789abcdef";
export const TEST_AUTH_TOKEN = "test-auth-token-0123456789abcdef";
/** A recording's audio as the stand-in serves it. */
export const RECORDING_AUDIO = Buffer.from("ID3 stand-in recording audio");

export interface TwilioStandIn {
  apiUrl: string;
  /** Recording SIDs deleted through the API. */
  deleted: string[];
  /** Requests refused for bad credentials. */
  unauthorised: number;
  /** While down, every API request gets 503, as when Twilio has an outage. */
  down: boolean;
  stop(): Promise<void>;
}

export async function startTwilioStandIn(): Promise<TwilioStandIn> {
  const expected = `Basic ${Buffer.from(`${TEST_ACCOUNT_SID}:${TEST_AUTH_TOKEN}`).toString("base64")}`;
  const recording = new RegExp(`^/2010-04-01/Accounts/${TEST_ACCOUNT_SID}/Recordings/(RE[0-9a-f]{32})\\.(json|mp3)$`);
  const state: TwilioStandIn = {
    apiUrl: "",
    deleted: [],
    unauthorised: 0,
    down: false,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    if (state.down) return res.writeHead(503).end();
    if (req.headers.authorization !== expected) {
      state.unauthorised++;
      return res.writeHead(401, { "Content-Type": "application/json" }).end('{"code":20003}');
    }
    const match = recording.exec(req.url ?? "");
    if (!match) return res.writeHead(404).end();
    const [, sid, extension] = match;
    if (req.method === "DELETE" && extension === "json") {
      if (state.deleted.includes(sid!)) return res.writeHead(404).end();
      state.deleted.push(sid!);
      return res.writeHead(204).end();
    }
    if (req.method === "GET" && extension === "mp3" && !state.deleted.includes(sid!)) {
      return res.writeHead(200, { "Content-Type": "audio/mpeg" }).end(RECORDING_AUDIO);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Posts a webhook to the server at `serverUrl` as Twilio would, signed for the public URL `siteUrl` + `path`. */
export function postWebhook(
  serverUrl: string,
  siteUrl: string,
  path: string,
  params: Record<string, string>,
  authToken = TEST_AUTH_TOKEN,
) {
  return fetch(`${serverUrl}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Twilio-Signature": getExpectedTwilioSignature(authToken, `${siteUrl}${path}`, params),
    },
    body: new URLSearchParams(params).toString(),
  });
}

let sidCounter = 0;
/** A fresh Twilio-shaped SID ("CA…" for calls, "RE…" for recordings). */
export function sid(prefix: "CA" | "RE"): string {
  return `${prefix}${(Date.now().toString(16) + (++sidCounter).toString(16).padStart(8, "0")).padStart(32, "0")}`;
}
