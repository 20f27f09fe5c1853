import type { Env } from "~/config/env.server.ts";
import { createTwilioClient, isTwilioConfigured, type TwilioClient } from "./client.server.ts";

/**
 * Twilio's REST client when call tracking is configured (TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN): calls, texts
 * (which also need TWILIO_FROM_NUMBER) and the deletion of recordings go through it. Unset: nothing does.
 */
export function twilioFromSettings(env: Env): TwilioClient | undefined {
  if (!isTwilioConfigured(env)) return undefined;
  return createTwilioClient({
    accountSid: env.TWILIO_ACCOUNT_SID,
    authToken: env.TWILIO_AUTH_TOKEN,
    apiBaseUrl: env.TWILIO_API_URL,
    smsFrom: env.TWILIO_FROM_NUMBER,
  });
}
