import VoiceResponse from "twilio/lib/twiml/VoiceResponse.js";

/** What Twilio is told to do at each step of a call (TwiML), built with the twilio package's own writer. */

const RECORDING_NOTICE = "This call may be recorded for quality.";
const VOICEMAIL_PROMPT =
  "Sorry, nobody could take your call. Please leave your name, number and message after the tone.";
/** How long the forwarded call rings before the caller is offered voicemail. */
const DIAL_TIMEOUT_SECONDS = 20;
/** The longest voicemail. */
const VOICEMAIL_MAX_SECONDS = 120;

export interface CallbackUrls {
  status: string;
  recording: string;
}

/** How the Dial records the conversation, when calls are recorded. */
function recordingAttributes(recording: boolean, urls: CallbackUrls): VoiceResponse.DialAttributes {
  return recording
    ? {
        record: "record-from-answer-dual",
        recordingStatusCallback: urls.recording,
        recordingStatusCallbackMethod: "POST",
        recordingStatusCallbackEvent: ["completed"],
      }
    : {};
}

/**
 * An incoming call: the notice when calls are recorded (unless the caller heard it already), then the forwarded
 * call, recorded from answer on both sides; it rings `timeoutSeconds` (a routed call's time left) or 20 seconds.
 */
export function forwardCall(
  forwardTo: string,
  recording: boolean,
  urls: CallbackUrls,
  options: { timeoutSeconds?: number; noticeGiven?: boolean } = {},
): string {
  const response = new VoiceResponse();
  if (recording && !options.noticeGiven) response.say(RECORDING_NOTICE);
  const dial = response.dial({
    timeout: options.timeoutSeconds ?? DIAL_TIMEOUT_SECONDS,
    action: urls.status,
    method: "POST",
    // A routed call keeps ringing for the caller until someone answers.
    ...(options.timeoutSeconds !== undefined ? { answerOnBridge: true } : {}),
    ...recordingAttributes(recording, urls),
  });
  dial.number(forwardTo);
  return response.toString();
}

const ZIP_PROMPT = "Please enter your five-digit ZIP code.";
/** How long the caller has to enter the ZIP code after the prompt. */
const ZIP_WAIT_SECONDS = 6;

/** The caller is asked for their ZIP code; what they enter (or nothing) goes to `action`. */
export function askForZip(action: string, recording: boolean): string {
  const response = new VoiceResponse();
  if (recording) response.say(RECORDING_NOTICE);
  const gather = response.gather({
    input: ["dtmf"],
    numDigits: 5,
    timeout: ZIP_WAIT_SECONDS,
    action,
    method: "POST",
    actionOnEmptyResult: true,
  });
  gather.say(ZIP_PROMPT);
  return response.toString();
}

/**
 * A partner is dialled; the caller keeps hearing ringing (answerOnBridge) while the partner's phone rings and, once
 * answered, while they hear the whisper at `whisper`. The Dial's end goes to `action`.
 */
export function ringPartner(
  offer: { phone: string; whisper: string; action: string; timeoutSeconds: number },
  options: { recording: boolean; noticeGiven: boolean; urls: CallbackUrls },
): string {
  const response = new VoiceResponse();
  if (options.recording && !options.noticeGiven) response.say(RECORDING_NOTICE);
  const dial = response.dial({
    answerOnBridge: true,
    timeout: offer.timeoutSeconds,
    action: offer.action,
    method: "POST",
    ...recordingAttributes(options.recording, options.urls),
  });
  dial.number({ url: offer.whisper, method: "POST" }, offer.phone);
  return response.toString();
}

/** How long the partner has to press 1 after the whisper. */
const WHISPER_WAIT_SECONDS = 5;
/** The whisper's words take about this long; with the wait, what a partner's answer adds to the caller's wait. */
export const WHISPER_SECONDS = 9 + WHISPER_WAIT_SECONDS;

/**
 * What the partner hears on picking up: whose call it is, the service and the ZIP, and that only a 1 takes it.
 * Nothing pressed (a voicemail box, a pocket) ends their leg, and the caller goes on to the next.
 */
export function whisper(call: { companyName: string; service: string | null; zip: string | null }, action: string) {
  const response = new VoiceResponse();
  const gather = response.gather({
    input: ["dtmf"],
    numDigits: 1,
    timeout: WHISPER_WAIT_SECONDS,
    action,
    method: "POST",
    actionOnEmptyResult: true,
  });
  const where = call.zip ? `, ZIP code ${call.zip.split("").join(" ")}` : "";
  gather.say(`${call.companyName} call for ${call.service ?? "plumbing"}${where}. Press 1 to take this call.`);
  response.hangup();
  return response.toString();
}

/** Nobody answered: the caller may leave a message of at most two minutes. */
export function offerVoicemail(urls: CallbackUrls): string {
  const response = new VoiceResponse();
  response.say(VOICEMAIL_PROMPT);
  response.record({
    maxLength: VOICEMAIL_MAX_SECONDS,
    playBeep: true,
    action: urls.status,
    method: "POST",
    recordingStatusCallback: urls.recording,
    recordingStatusCallbackMethod: "POST",
    recordingStatusCallbackEvent: ["completed"],
  });
  return response.toString();
}

export function hangUp(): string {
  const response = new VoiceResponse();
  response.hangup();
  return response.toString();
}

/** A status report Twilio needs no instructions for. */
export function nothingToDo(): string {
  return new VoiceResponse().toString();
}
