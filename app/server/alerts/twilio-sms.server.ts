import { z } from "zod";
import { DeliveryRefused, type ChannelSender } from "../outbox/index.server.ts";
import type { TwilioClient } from "../twilio/index.server.ts";

/**
 * The "sms" channel: a text message sent through Twilio from TWILIO_FROM_NUMBER, never to a number that replied
 * STOP. Twilio refusing it for good (a bad number, a blocked recipient) ends its tries; anything else is retried
 * by the outbox.
 */

const textPayload = z.object({ to: z.string().min(1).max(20), body: z.string().min(1).max(1600) });

/** A text message as the outbox stores it. */
export type TextMessage = z.infer<typeof textPayload>;

export function twilioTextSender(twilio: TwilioClient, optedOut: (number: string) => Promise<boolean>): ChannelSender {
  return async (payload, signal) => {
    const parsed = textPayload.safeParse(payload);
    if (!parsed.success) throw new DeliveryRefused("the text message is malformed");
    if (await optedOut(parsed.data.to)) throw new DeliveryRefused("the number replied STOP");
    await twilio.sendSms(parsed.data.to, parsed.data.body, signal);
  };
}
