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

/** An incoming call: the notice when calls are recorded, then the forwarded call, recorded from answer on both sides. */
export function forwardCall(forwardTo: string, recording: boolean, urls: CallbackUrls): string {
  const response = new VoiceResponse();
  if (recording) response.say(RECORDING_NOTICE);
  const dial = response.dial({
    timeout: DIAL_TIMEOUT_SECONDS,
    action: urls.status,
    method: "POST",
    ...(recording
      ? {
          record: "record-from-answer-dual",
          recordingStatusCallback: urls.recording,
          recordingStatusCallbackMethod: "POST",
          recordingStatusCallbackEvent: ["completed"],
        }
      : {}),
  });
  dial.number(forwardTo);
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
