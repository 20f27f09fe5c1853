import { DeliveryRefused } from "../outbox/index.server.ts";

/**
 * Twilio's REST API, called with fetch and HTTP Basic auth (the account SID and its auth token), as Twilio's own
 * client does. `apiBaseUrl` is https://api.twilio.com; tests point it at a local stand-in.
 */
export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  apiBaseUrl?: string;
  /** The number text messages are sent from (a Twilio number on the account). */
  smsFrom?: string;
}

export interface TwilioClient {
  /** Resolves once the recording is gone at Twilio (already gone counts). Throws DeliveryRefused when it never will be. */
  deleteRecording(recordingSid: string, signal?: AbortSignal): Promise<void>;
  /** Sends a text message from `smsFrom`; resolves once Twilio has accepted it. */
  sendSms(to: string, body: string, signal?: AbortSignal): Promise<void>;
  /**
   * Sends a text message from `from`, with Twilio to post its delivery states to `statusCallback`; resolves with
   * the message's SID once Twilio has accepted it.
   */
  sendText(text: OutgoingText, signal?: AbortSignal): Promise<{ sid: string }>;
  /** The recording's audio (MP3) as Twilio streams it, or null when Twilio has none by that SID. */
  fetchRecording(recordingSid: string, signal?: AbortSignal): Promise<Response | null>;
}

export interface OutgoingText {
  to: string;
  from: string;
  body: string;
  statusCallback?: string;
}

const TWILIO_API_BASE_URL = "https://api.twilio.com";
const RECORDING_SID = /^RE[0-9a-f]{32}$/i;
const REQUEST_TIMEOUT_MS = 15_000;

interface TwilioCredentials {
  TWILIO_ACCOUNT_SID?: string | undefined;
  TWILIO_AUTH_TOKEN?: string | undefined;
}

/** Twilio is configured when both the account SID and its auth token are set. */
export function isTwilioConfigured<T extends TwilioCredentials>(
  settings: T,
): settings is T & { TWILIO_ACCOUNT_SID: string; TWILIO_AUTH_TOKEN: string } {
  return Boolean(settings.TWILIO_ACCOUNT_SID && settings.TWILIO_AUTH_TOKEN);
}

/** A reply Twilio will never change its mind about (4xx other than 408 and 429). */
function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

export function createTwilioClient(settings: TwilioSettings): TwilioClient {
  const base = `${(settings.apiBaseUrl ?? TWILIO_API_BASE_URL).replace(/\/+$/, "")}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString("base64")}`;
  const request = (path: string, init: RequestInit, signal?: AbortSignal) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { ...init.headers, Authorization: authorization },
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
        : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  const recordingPath = (recordingSid: string, extension: string) => {
    if (!RECORDING_SID.test(recordingSid)) throw new DeliveryRefused("not a recording SID");
    return `/Recordings/${recordingSid}.${extension}`;
  };

  const sendText = async (text: OutgoingText, signal?: AbortSignal) => {
    const response = await request(
      "/Messages.json",
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          To: text.to,
          From: text.from,
          Body: text.body,
          ...(text.statusCallback ? { StatusCallback: text.statusCallback } : {}),
        }).toString(),
      },
      signal,
    );
    if (response.ok) {
      const answer = (await response.json().catch(() => null)) as { sid?: unknown } | null;
      return { sid: typeof answer?.sid === "string" ? answer.sid : "" };
    }
    await response.body?.cancel();
    const problem = `Twilio answered ${response.status} to sending a text message`;
    throw isRefusal(response.status) ? new DeliveryRefused(problem) : new Error(problem);
  };

  return {
    async deleteRecording(recordingSid, signal) {
      const response = await request(recordingPath(recordingSid, "json"), { method: "DELETE" }, signal);
      await response.body?.cancel();
      if (response.ok || response.status === 404) return;
      const problem = `Twilio answered ${response.status} to deleting a recording`;
      throw isRefusal(response.status) ? new DeliveryRefused(problem) : new Error(problem);
    },
    async sendSms(to, body, signal) {
      if (!settings.smsFrom) throw new DeliveryRefused("no number to send text messages from is configured");
      await sendText({ to, from: settings.smsFrom, body }, signal);
    },
    sendText,
    async fetchRecording(recordingSid, signal) {
      const response = await request(recordingPath(recordingSid, "mp3"), { method: "GET" }, signal);
      if (response.ok) return response;
      await response.body?.cancel();
      if (response.status === 404) return null;
      throw new Error(`Twilio answered ${response.status} to fetching a recording`);
    },
  };
}
