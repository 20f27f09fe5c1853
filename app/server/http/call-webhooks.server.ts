import { isRowId } from "~/lib/row-id.ts";
import { NO_SUCH_CALL, twilioWebhooks, type TwilioStep } from "./twilio-webhooks.server.ts";
import type { RunStatement } from "../db/index.server.ts";
import {
  logIncomingCall,
  MISSED_STATUSES,
  recordOutcome,
  recordRecording,
  recordVoicemail,
  type EndedCall,
  type MissedStatus,
  type MissedCallEmailSettings,
  forwardCall,
  hangUp,
  nothingToDo,
  offerVoicemail,
  closeRingingOffers,
  createCallRouting,
  type CallbackUrls,
  type CallPartners,
  type CallRoutingSettings,
  type RoutingStep,
} from "../calls/index.server.ts";

/** Where Twilio sends a call's steps: the voice URL of every number, and the callbacks the TwiML names. */
const CALL_WEBHOOK_PATHS = {
  voice: "/api/calls/voice",
  status: "/api/calls/status",
  recording: "/api/calls/recording",
  zip: "/api/calls/zip",
  ring: "/api/calls/ring",
  whisper: "/api/calls/whisper",
  whisperDigit: "/api/calls/whisper-digit",
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
  /** Called once a call is recorded as missed, before Twilio is answered (the text-back, when texting is on). */
  onMissedCall?(call: EndedCall): Promise<void>;
  /** Called once an answered call's webhooks are queued, so the outbox sends them now. */
  onWebhooksQueued(): void;
  /** Calls routed to partners when the partners say so; without it, every call is forwarded as before. */
  routing?: {
    partners: CallPartners;
    settings: Omit<CallRoutingSettings, "forwardTo" | "recording">;
    /** Called once the partner's notice of their call is queued, so the outbox sends it now. */
    onNoticeQueued(): void;
  };
}

const CALL_SID = /^CA[0-9a-f]{32}$/i;
const RECORDING_SID = /^RE[0-9a-f]{32}$/i;
const PHONE = /^[+\w]{1,32}$/;
/** Twilio's STIR/SHAKEN verification of the caller ID, as `TN-Validation-Passed-A` or `No-TN-Validation`. */
const VERIFICATION = /^[A-Za-z-]{1,40}$/;

/** Whole seconds from a Twilio parameter; null when absent or not a count. */
function seconds(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,7}$/.test(value) ? Number(value) : null;
}

/** Twilio's webhooks for calls: the call arriving, its outcome, its recording (see twilioWebhooks). */
export function callWebhooks(run: RunStatement, settings: CallWebhookSettings) {
  const urls: CallbackUrls = {
    status: `${settings.siteUrl}${CALL_WEBHOOK_PATHS.status}`,
    recording: `${settings.siteUrl}${CALL_WEBHOOK_PATHS.recording}`,
  };

  const missed = async (callSid: string, status: MissedStatus) => {
    const change = await recordOutcome(run, callSid, { status }, settings.missedCallEmail);
    if (change.kind === "recorded") {
      settings.onEmailQueued();
      await settings.onMissedCall?.(change.call);
    }
  };

  const step = (path: string, query: Record<string, string> = {}) =>
    `${settings.siteUrl}${path}${Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : ""}`;
  const routing =
    settings.routing &&
    createCallRouting(
      run,
      settings.routing.partners,
      { ...settings.routing.settings, forwardTo: settings.forwardTo, recording: settings.recording },
      {
        urls: {
          ...urls,
          zip: (attempt) => step(CALL_WEBHOOK_PATHS.zip, { try: String(attempt) }),
          ring: (offer) => step(CALL_WEBHOOK_PATHS.ring, { offer }),
          whisper: (offer) => step(CALL_WEBHOOK_PATHS.whisper, { offer }),
          whisperDigit: (offer) => step(CALL_WEBHOOK_PATHS.whisperDigit, { offer }),
        },
        onNobodyAnswered: (callSid) => missed(callSid, "no-answer"),
        // The call's `call.completed` and its charge's `ledger.entry.created` webhooks, when any endpoint takes them.
        onPartnerCallEnded: () => settings.onWebhooksQueued(),
        onNoticeQueued: () => settings.routing!.onNoticeQueued(),
      },
    );
  const answer = (outcome: RoutingStep) => (outcome.kind === "twiml" ? outcome.twiml : NO_SUCH_CALL);

  const voice: TwilioStep = async (params) => {
    const callSid = params.CallSid ?? "";
    if (!CALL_SID.test(callSid) || !PHONE.test(params.From ?? "") || !PHONE.test(params.To ?? "")) return null;
    const logged = await logIncomingCall(
      run,
      {
        callSid,
        caller: params.From!,
        called: params.To!,
        callerVerification: VERIFICATION.test(params.StirVerstat ?? "") ? params.StirVerstat! : null,
      },
      { site: settings.siteNumber, pool: settings.pool },
    );
    if (routing && (await routing.routingOn())) {
      return answer(await routing.incoming(callSid, logged, params.FromZip));
    }
    return forwardCall(settings.forwardTo, settings.recording, urls);
  };

  const DIGITS = /^[0-9*#]{0,10}$/;
  const zip: TwilioStep = async (params, query) => {
    const callSid = params.CallSid ?? "";
    const attempt = query.get("try");
    if (!routing || !CALL_SID.test(callSid) || (attempt !== "1" && attempt !== "2")) return null;
    if (!DIGITS.test(params.Digits ?? "")) return null;
    return answer(await routing.zipEntered(callSid, attempt === "1" ? 1 : 2, params.Digits, params.FromZip));
  };

  // The partner's leg: the whisper once they pick up, then the key they press.
  const whisperStep: TwilioStep = async (params, query) => {
    const offer = query.get("offer");
    if (!routing || !isRowId(offer) || !CALL_SID.test(params.CallSid ?? "")) return null;
    return answer(await routing.partnerAnswered(offer));
  };
  const whisperDigit: TwilioStep = async (params, query) => {
    const offer = query.get("offer");
    if (!routing || !isRowId(offer) || !CALL_SID.test(params.CallSid ?? "")) return null;
    if (!DIGITS.test(params.Digits ?? "")) return null;
    return answer(await routing.partnerPressed(offer, params.Digits));
  };

  // The Dial of a partner ended: taken and over, or missed and on to the next.
  const ring: TwilioStep = async (params, query) => {
    const offer = query.get("offer");
    const callSid = params.CallSid ?? "";
    const dialStatus = params.DialCallStatus ?? "";
    if (!routing || !isRowId(offer) || !CALL_SID.test(callSid) || !/^[a-z-]{1,20}$/.test(dialStatus)) return null;
    return answer(
      await routing.partnerDialEnded(offer, callSid, { status: dialStatus, seconds: seconds(params.DialCallDuration) }),
    );
  };

  // The Dial's action (the forwarded call's outcome), the Record's action (a voicemail left), or the call's own
  // status callback when the number is set to send one (a caller who hung up before the Dial ended).
  const status: TwilioStep = async (params) => {
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
    // The caller is gone: a partner still ringing for them is free for the next call.
    if (routing && callStatus !== undefined) await closeRingingOffers(run, callSid);
    if (callStatus === "completed") await missed(callSid, "canceled");
    else if ((MISSED_STATUSES as readonly string[]).includes(callStatus ?? "")) {
      await missed(callSid, callStatus as MissedStatus);
    }
    return nothingToDo();
  };

  const recording: TwilioStep = async (params) => {
    const callSid = params.CallSid ?? "";
    const recordingSid = params.RecordingSid ?? "";
    const length = seconds(params.RecordingDuration);
    if (!CALL_SID.test(callSid) || !RECORDING_SID.test(recordingSid) || length === null) return null;
    if (params.RecordingStatus === undefined || params.RecordingStatus === "completed") {
      await recordRecording(run, callSid, { sid: recordingSid, seconds: length });
    }
    return "";
  };

  const steps: Record<string, TwilioStep> = {
    [CALL_WEBHOOK_PATHS.voice]: voice,
    [CALL_WEBHOOK_PATHS.status]: status,
    [CALL_WEBHOOK_PATHS.recording]: recording,
    ...(routing
      ? {
          [CALL_WEBHOOK_PATHS.zip]: zip,
          [CALL_WEBHOOK_PATHS.ring]: ring,
          [CALL_WEBHOOK_PATHS.whisper]: whisperStep,
          [CALL_WEBHOOK_PATHS.whisperDigit]: whisperDigit,
        }
      : {}),
  };

  return twilioWebhooks(steps, settings);
}
