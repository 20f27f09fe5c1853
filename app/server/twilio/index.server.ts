/** Twilio: its REST API (recordings, text messages) and the check of its webhooks' signatures. */
export { createTwilioClient, isTwilioConfigured, type TwilioClient } from "./client.server.ts";
export { isSignedByTwilio } from "./webhook-signature.server.ts";
