import type { Texts } from "../texts/index.server.ts";
import { isRowId } from "~/lib/row-id.ts";
import { twilioWebhooks, type TwilioStep } from "./twilio-webhooks.server.ts";

/** Where Twilio posts texts: each number's messaging webhook, and the status callback every text we send names. */
export const TEXT_WEBHOOK_PATHS = {
  incoming: "/api/sms/incoming",
  status: "/api/sms/status",
} as const;

const MESSAGE_SID = /^(SM|MM)[0-9a-f]{32}$/i;
const E164 = /^\+[1-9]\d{6,14}$/;
/** Twilio's longest text body (ten segments of 160). */
const BODY_MAX_LENGTH = 1_600;
/** An empty TwiML answer: nothing said back from here (a reply, when due, goes through the outbox). */
const NO_REPLY = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** Twilio's webhooks for texts: a customer's text arriving, and the delivery states of ours. */
export function textWebhooks(texts: Texts, settings: { siteUrl: string; authToken: string }) {
  const incoming: TwilioStep = async (params) => {
    const { MessageSid, From, To, Body = "" } = params;
    if (!MESSAGE_SID.test(MessageSid ?? "") || !E164.test(From ?? "") || !E164.test(To ?? "")) return null;
    if (Body.length > BODY_MAX_LENGTH) return null;
    await texts.receive({
      messageSid: MessageSid!,
      customer: From!,
      ours: To!,
      body: Body,
      // Twilio's Advanced Opt-Out answered the keyword itself (and says which it was).
      answeredByTwilio: params.OptOutType !== undefined,
    });
    return NO_REPLY;
  };

  const status: TwilioStep = async (params, query) => {
    const textId = query.get("text") ?? "";
    const { MessageSid, MessageStatus } = params;
    if (!isRowId(textId) || !MESSAGE_SID.test(MessageSid ?? "") || !MessageStatus) return null;
    await texts.recordStatus({ textId, messageSid: MessageSid!, status: MessageStatus });
    return "";
  };

  return twilioWebhooks({ [TEXT_WEBHOOK_PATHS.incoming]: incoming, [TEXT_WEBHOOK_PATHS.status]: status }, settings);
}
