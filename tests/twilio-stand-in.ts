import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getExpectedTwilioSignature } from "twilio/lib/webhooks/webhooks.js";

/**
 * Twilio, as the site meets it: its REST API on loopback (HTTP Basic auth with the account SID and auth token,
 * recordings to fetch and delete, text messages to send), and its webhooks, signed with the twilio package's own
 * algorithm.
 */

export const TEST_ACCOUNT_SID = "AC0123456789abcdef0123456789abcdef";
export const TEST_AUTH_TOKEN = "test-auth-token-0123456789abcdef";
/** A recording's audio as the stand-in serves it. */
export const RECORDING_AUDIO = Buffer.from("ID3 stand-in recording audio");

export interface TwilioStandIn {
  apiUrl: string;
  /** Recording SIDs deleted through the API. */
  deleted: string[];
  /** Text messages sent through the API (the Messages resource's form fields), in order. */
  texts: SentText[];
  /** Requests refused for bad credentials. */
  unauthorised: number;
  /** While down, every API request gets 503, as when Twilio has an outage. */
  down: boolean;
  stop(): Promise<void>;
}

export interface SentText {
  sid: string;
  to: string;
  from: string;
  body: string;
  statusCallback: string | null;
}

/** On `port` when given (a server started before the stand-in), else on any free port. */
export async function startTwilioStandIn(options: { port?: number } = {}): Promise<TwilioStandIn> {
  const expected = `Basic ${Buffer.from(`${TEST_ACCOUNT_SID}:${TEST_AUTH_TOKEN}`).toString("base64")}`;
  const recording = new RegExp(`^/2010-04-01/Accounts/${TEST_ACCOUNT_SID}/Recordings/(RE[0-9a-f]{32})\\.(json|mp3)$`);
  const messages = `/2010-04-01/Accounts/${TEST_ACCOUNT_SID}/Messages.json`;
  const state: TwilioStandIn = {
    apiUrl: "",
    deleted: [],
    texts: [],
    unauthorised: 0,
    down: false,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (state.down) return res.writeHead(503).end();
    if (req.headers.authorization !== expected) {
      state.unauthorised++;
      return res.writeHead(401, { "Content-Type": "application/json" }).end('{"code":20003}');
    }
    if (req.method === "POST" && req.url === messages) {
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const [to, from, body] = [form.get("To"), form.get("From"), form.get("Body")];
      if (!to || !from || !body) {
        return res.writeHead(400, { "Content-Type": "application/json" }).end('{"code":21604}');
      }
      const text = { sid: sid("SM"), to, from, body, statusCallback: form.get("StatusCallback") };
      state.texts.push(text);
      return res
        .writeHead(201, { "Content-Type": "application/json" })
        .end(JSON.stringify({ sid: text.sid, status: "queued", to, from, body }));
    }
    const match = recording.exec(req.url ?? "");
    if (!match) return res.writeHead(404).end();
    const [, recordingSid, extension] = match;
    if (req.method === "DELETE" && extension === "json") {
      if (state.deleted.includes(recordingSid!)) return res.writeHead(404).end();
      state.deleted.push(recordingSid!);
      return res.writeHead(204).end();
    }
    if (req.method === "GET" && extension === "mp3" && !state.deleted.includes(recordingSid!)) {
      return res.writeHead(200, { "Content-Type": "audio/mpeg" }).end(RECORDING_AUDIO);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
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
/** A fresh Twilio-shaped SID ("CA…" for calls, "RE…" for recordings, "SM…" for text messages). */
export function sid(prefix: "CA" | "RE" | "SM"): string {
  return `${prefix}${(Date.now().toString(16) + (++sidCounter).toString(16).padStart(8, "0")).padStart(32, "0")}`;
}
