import type { NextFunction, Request, Response } from "express";
import { readRequestBody } from "./request-body.server.ts";
import { log } from "../log.server.ts";
import { isSignedByTwilio } from "../twilio/index.server.ts";
import type { RunStatement } from "../db/index.server.ts";
import {
  logIncomingCall,
  MISSED_STATUSES,
  recordOutcome,
  recordRecording,
  recordVoicemail,
  type MissedStatus,
  type MissedCallEmailSettings,
  forwardCall,
  hangUp,
  nothingToDo,
  offerVoicemail,
  type CallbackUrls,
} from "../calls/index.server.ts";

/** Where Twilio sends a call's steps: the voice URL of every number, and the callbacks the TwiML names. */
const CALL_WEBHOOK_PATHS = {
  voice: "/api/calls/voice",
  status: "/api/calls/status",
  recording: "/api/calls/recording",
} as const;

export interface CallWebhookSettings {
  siteUrl: string;
  authToken: string;
  forwardTo: string;
  recording: boolean;
  /** The site's own number (PHONE_E164): its calls are unattributed website calls. */
  siteNumber: string;
  pool: readonly string[];
  missedCallEmail: MissedCallEmailSettings & { messageIdDomain: string };
  /** Called once a missed call's email is queued, so the outbox sends it now. */
  onEmailQueued(): void;
  /** Called once an answered call's webhooks are queued, so the outbox sends them now. */
  onWebhooksQueued(): void;
}

const CALL_SID = /^CA[0-9a-f]{32}$/i;
const RECORDING_SID = /^RE[0-9a-f]{32}$/i;
const PHONE = /^[+\w]{1,32}$/;

/** Whole seconds from a Twilio parameter; null when absent or not a count. */
function seconds(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,7}$/.test(value) ? Number(value) : null;
}

type Params = Record<string, string>;
type Step = (params: Params) => Promise<string | null>;

/**
 * Twilio's webhooks. `signed` answers a request whose X-Twilio-Signature is valid for SITE_URL + path + query
 * (before the POST limit and the origin check, which Twilio's servers must not be subject to); any other request
 * goes on through those, to `refuse`, which answers 403 having changed nothing.
 */
export function callWebhooks(run: RunStatement, settings: CallWebhookSettings) {
  const urls: CallbackUrls = {
    status: `${settings.siteUrl}${CALL_WEBHOOK_PATHS.status}`,
    recording: `${settings.siteUrl}${CALL_WEBHOOK_PATHS.recording}`,
  };

  const voice: Step = async (params) => {
    const callSid = params.CallSid ?? "";
    if (!CALL_SID.test(callSid) || !PHONE.test(params.From ?? "") || !PHONE.test(params.To ?? "")) return null;
    await logIncomingCall(
      run,
      { callSid, caller: params.From!, called: params.To! },
      { site: settings.siteNumber, pool: settings.pool },
    );
    return forwardCall(settings.forwardTo, settings.recording, urls);
  };

  const missed = async (callSid: string, status: MissedStatus) => {
    const change = await recordOutcome(run, callSid, { status }, settings.missedCallEmail);
    if (change.kind === "recorded") settings.onEmailQueued();
  };

  // The Dial's action (the forwarded call's outcome), the Record's action (a voicemail left), or the call's own
  // status callback when the number is set to send one (a caller who hung up before the Dial ended).
  const status: Step = async (params) => {
    const callSid = params.CallSid ?? "";
    if (!CALL_SID.test(callSid)) return null;
    const dialStatus = params.DialCallStatus;
    if (dialStatus !== undefined) {
      if (dialStatus === "completed" || dialStatus === "answered") {
        const change = await recordOutcome(
          run,
          callSid,
          { status: "answered", durationSeconds: seconds(params.DialCallDuration) },
          settings.missedCallEmail,
        );
        if (change.kind === "recorded" && change.webhooks) settings.onWebhooksQueued();
        return hangUp();
      }
      if (!(MISSED_STATUSES as readonly string[]).includes(dialStatus)) return null;
      await missed(callSid, dialStatus as MissedStatus);
      return offerVoicemail(urls);
    }
    const recordingSid = params.RecordingSid;
    if (recordingSid !== undefined) {
      const length = seconds(params.RecordingDuration);
      if (!RECORDING_SID.test(recordingSid) || length === null) return null;
      if (length > 0) await recordVoicemail(run, callSid, { sid: recordingSid, seconds: length });
      return hangUp();
    }
    const callStatus = params.CallStatus;
    if (callStatus === "completed") await missed(callSid, "canceled");
    else if ((MISSED_STATUSES as readonly string[]).includes(callStatus ?? "")) {
      await missed(callSid, callStatus as MissedStatus);
    }
    return nothingToDo();
  };

  const recording: Step = async (params) => {
    const callSid = params.CallSid ?? "";
    const recordingSid = params.RecordingSid ?? "";
    const length = seconds(params.RecordingDuration);
    if (!CALL_SID.test(callSid) || !RECORDING_SID.test(recordingSid) || length === null) return null;
    if (params.RecordingStatus === undefined || params.RecordingStatus === "completed") {
      await recordRecording(run, callSid, { sid: recordingSid, seconds: length });
    }
    return "";
  };

  const steps: Record<string, Step> = {
    [CALL_WEBHOOK_PATHS.voice]: voice,
    [CALL_WEBHOOK_PATHS.status]: status,
    [CALL_WEBHOOK_PATHS.recording]: recording,
  };

  return {
    paths: Object.keys(steps),
    async signed(req: Request, res: Response, next: NextFunction) {
      const step = steps[req.path];
      if (!step || req.method !== "POST") return next();
      const body = await readRequestBody({ header: (name) => req.get(name) ?? null, body: req });
      if ("status" in body && body.status === 413) return res.status(413).type("text/plain").send(body.error);
      const params = "payload" in body ? (body.payload as Params) : null;
      const signature = req.get("x-twilio-signature");
      if (
        !params ||
        !isSignedByTwilio(settings.authToken, signature, `${settings.siteUrl}${req.originalUrl}`, params)
      ) {
        // The body is read; the request goes on to the POST limit and the origin check, then to `refuse`.
        return next();
      }
      try {
        const answer = await step(params);
        res.set("Cache-Control", "no-store");
        if (answer === null) return res.status(400).type("text/plain").send("Unexpected parameters.");
        if (answer === "") return res.status(204).end();
        res.type("text/xml").send(answer);
      } catch (error) {
        log.error({ err: error }, "call webhook failed");
        // Twilio retries a 5xx; the steps are idempotent.
        res.status(503).type("text/plain").send("Try again.");
      }
    },
    refuse(req: Request, res: Response, next: NextFunction) {
      if (!steps[req.path]) return next();
      res.status(403).type("text/plain").send("This request is not signed by Twilio.");
    },
  };
}
