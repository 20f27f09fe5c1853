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

/** A TwiML element as the stand-in reads it. */
interface TwimlElement {
  name: string;
  attributes: Record<string, string>;
  children: TwimlElement[];
  text: string;
}

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const unescapeXml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);

/** Reads a TwiML document (the well-formed XML the site writes with the twilio package) into its elements. */
function parseTwiml(xml: string): TwimlElement {
  const root: TwimlElement = { name: "#document", attributes: {}, children: [], text: "" };
  const open: TwimlElement[] = [root];
  for (const token of xml.replace(/<\?xml[^>]*\?>/, "").matchAll(/<(\/?)([A-Za-z]+)([^>]*?)(\/?)>|([^<]+)/g)) {
    const [, closing, name, rawAttributes, selfClosing, text] = token;
    const parent = open.at(-1)!;
    if (text !== undefined) {
      parent.text += unescapeXml(text);
    } else if (closing) {
      open.pop();
    } else {
      const attributes = Object.fromEntries(
        [...rawAttributes!.matchAll(/([A-Za-z]+)="([^"]*)"/g)].map(([, key, value]) => [key!, unescapeXml(value!)]),
      );
      const element: TwimlElement = { name: name!, attributes, children: [], text: "" };
      parent.children.push(element);
      if (!selfClosing) open.push(element);
    }
  }
  return root.children[0]!;
}

/** How a dialled phone behaves: it rings out, is busy, or is answered (and then what its owner presses). */
export type PhoneBehaviour =
  { kind: "no-answer" } | { kind: "busy" } | { kind: "answers"; presses: string; talkSeconds: number };

export interface CallScript {
  from: string;
  to: string;
  /** Twilio's guess of the caller's ZIP code from their number. */
  fromZip?: string;
  /** What the caller types at each ZIP prompt, in turn ("" for nothing). */
  zipEntries?: string[];
  /** How each number the site dials behaves; a number not listed does not answer. */
  phones?: Record<string, PhoneBehaviour>;
  /** The caller leaves a message of this many seconds when offered voicemail (none: hangs up). */
  voicemailSeconds?: number;
  /** Twilio sends each Dial's action this many times (a repeat after a timeout), following the first answer. */
  dialActionTimes?: number;
  /** Called before each webhook (after the first), with its path: a test may restart the server there. */
  beforeStep?(path: string): Promise<void>;
  /** Called when a phone starts ringing, before it answers: a test may place another call meanwhile. */
  onRing?(number: string): Promise<void>;
}

export interface CallRecord {
  callSid: string;
  /** Numbers dialled, in order, with the Dial's attributes. */
  dialled: { number: string; timeout: number; answerOnBridge: boolean; whisper: boolean }[];
  /** What the caller heard said, and what partners heard in their whisper. */
  callerHeard: string[];
  partnerHeard: string[];
  /** The number the caller ended up talking with, if any. */
  connectedTo: string | null;
  voicemailOffered: boolean;
  /** Each webhook's path and HTTP status, in order. */
  steps: { path: string; status: number }[];
}

/**
 * Twilio's side of a call to the site, as Twilio runs it: the voice webhook, then each verb of the TwiML the site
 * answers with (Say, Gather, Dial with its Number's whisper URL, Record, Hangup), each action posted as a signed
 * webhook to the URL the TwiML names, and at the end the call's own status callback.
 */
export async function placeCall(
  target: { serverUrl: () => string; siteUrl: string },
  script: CallScript,
): Promise<CallRecord> {
  const record: CallRecord = {
    callSid: sid("CA"),
    dialled: [],
    callerHeard: [],
    partnerHeard: [],
    connectedTo: null,
    voicemailOffered: false,
    steps: [],
  };
  const zipEntries = [...(script.zipEntries ?? [])];
  // Twilio sends the caller's details, FromZip among them, with every request of the call.
  const base = {
    AccountSid: TEST_ACCOUNT_SID,
    CallSid: record.callSid,
    From: script.from,
    To: script.to,
    ...(script.fromZip ? { FromZip: script.fromZip } : {}),
  };
  let first = true;

  const post = async (url: string, params: Record<string, string>): Promise<string> => {
    const path = url.startsWith(target.siteUrl) ? url.slice(target.siteUrl.length) : url;
    if (!first) await script.beforeStep?.(path);
    first = false;
    const response = await postWebhook(target.serverUrl(), target.siteUrl, path, params);
    record.steps.push({ path, status: response.status });
    return response.status === 200 ? await response.text() : "";
  };

  /** Runs a document on the caller's leg; returns when the call is over. */
  const run = async (xml: string): Promise<void> => {
    if (!xml) return;
    for (const verb of parseTwiml(xml).children) {
      if (verb.name === "Say") record.callerHeard.push(verb.text);
      else if (verb.name === "Hangup") return;
      else if (verb.name === "Gather") {
        for (const said of verb.children) record.callerHeard.push(said.text);
        const digits = zipEntries.shift() ?? "";
        if (digits !== "" || verb.attributes.actionOnEmptyResult === "true") {
          return run(await post(verb.attributes.action!, { ...base, CallStatus: "in-progress", Digits: digits }));
        }
      } else if (verb.name === "Dial") return run(await dial(verb));
      else if (verb.name === "Record") {
        record.voicemailOffered = true;
        if (script.voicemailSeconds === undefined) return;
        return run(
          await post(verb.attributes.action!, {
            ...base,
            CallStatus: "in-progress",
            RecordingSid: sid("RE"),
            RecordingDuration: String(script.voicemailSeconds),
          }),
        );
      }
    }
  };

  /** A Dial: the number rings, is answered (the whisper runs on its leg first), and the Dial's action follows. */
  const dial = async (verb: TwimlElement): Promise<string> => {
    const numberNoun = verb.children.find((child) => child.name === "Number")!;
    const number = numberNoun.text.trim();
    record.dialled.push({
      number,
      timeout: Number(verb.attributes.timeout),
      answerOnBridge: verb.attributes.answerOnBridge === "true",
      whisper: numberNoun.attributes.url !== undefined,
    });
    await script.onRing?.(number);
    const phone = script.phones?.[number] ?? { kind: "no-answer" };
    let outcome: { DialCallStatus: string; DialCallDuration?: string };
    if (phone.kind !== "answers") outcome = { DialCallStatus: phone.kind };
    else if (!numberNoun.attributes.url) {
      record.connectedTo = number;
      outcome = { DialCallStatus: "completed", DialCallDuration: String(phone.talkSeconds) };
    } else {
      // The whisper runs on the partner's own leg, a child call of this one.
      const leg = { AccountSid: TEST_ACCOUNT_SID, CallSid: sid("CA"), ParentCallSid: record.callSid };
      let connected = false;
      let document = await post(numberNoun.attributes.url, { ...leg, CallStatus: "in-progress" });
      whisper: while (document) {
        for (const whisperVerb of parseTwiml(document).children) {
          if (whisperVerb.name === "Hangup") break whisper;
          if (whisperVerb.name === "Say") record.partnerHeard.push(whisperVerb.text);
          if (whisperVerb.name === "Gather") {
            for (const said of whisperVerb.children) record.partnerHeard.push(said.text);
            document = await post(whisperVerb.attributes.action!, {
              ...leg,
              CallStatus: "in-progress",
              Digits: phone.presses,
            });
            continue whisper;
          }
        }
        // The whisper's document ended without hanging up: the two are connected.
        connected = true;
        break;
      }
      if (connected) record.connectedTo = number;
      outcome = { DialCallStatus: "completed", DialCallDuration: String(connected ? phone.talkSeconds : 8) };
    }
    const params = { ...base, CallStatus: "in-progress", ...outcome };
    const answer = await post(verb.attributes.action!, params);
    for (let repeat = 1; repeat < (script.dialActionTimes ?? 1); repeat++) await post(verb.attributes.action!, params);
    return answer;
  };

  await run(
    await post("/api/calls/voice", {
      ...base,
      CallStatus: "ringing",
      Direction: "inbound",
    }),
  );
  await post("/api/calls/status", { ...base, CallStatus: "completed" });
  return record;
}
