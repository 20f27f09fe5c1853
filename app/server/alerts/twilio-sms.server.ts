import { z } from "zod";
import { DeliveryRefused, type ChannelSender } from "../outbox/index.server.ts";

/**
 * The "sms" channel: a text message sent through Twilio's Messages REST API (POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To, From and Body, HTTP Basic auth with the
 * account SID and auth token). A 4xx other than 429 is a refusal for good (a bad number, a blocked
 * recipient); anything else is retried by the outbox.
 */

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** The sending number, E.164. */
  from: string;
  /** https://api.twilio.com, or a stand-in's address in tests. */
  apiUrl: string;
}

const textPayload = z.object({ to: z.string().min(1).max(20), body: z.string().min(1).max(1600) });

/** A text message as the outbox stores it. */
export type TextMessage = z.infer<typeof textPayload>;

export function twilioTextSender(settings: TwilioSettings): ChannelSender {
  const url = `${settings.apiUrl.replace(/\/+$/, "")}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString("base64")}`;
  return async (payload, signal) => {
    const parsed = textPayload.safeParse(payload);
    if (!parsed.success) throw new DeliveryRefused("the text message is malformed");
    const response = await fetch(url, {
      method: "POST",
      headers: { Authorization: authorization, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ To: parsed.data.to, From: settings.from, Body: parsed.data.body }),
      signal,
    });
    if (response.ok) return;
    const detail = await response.json().then(
      (body: { code?: unknown; message?: unknown }) => ` (Twilio error ${String(body.code ?? "")})`,
      () => "",
    );
    const reason = `Twilio answered ${response.status}${detail}`;
    if (response.status >= 400 && response.status < 500 && response.status !== 429) throw new DeliveryRefused(reason);
    throw new Error(reason);
  };
}
