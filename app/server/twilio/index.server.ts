/** Twilio: its REST API (recordings, text messages) and the check of its webhooks' signatures. */
export {
  createTwilioClient,
  isTwilioConfigured,
  TWILIO_API_BASE_URL,
  type TwilioClient,
  type TwilioSettings,
} from "./client.server.ts";
export { isSignedByTwilio } from "./webhook-signature.server.ts";
