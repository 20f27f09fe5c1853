/** Twilio: its REST API (recordings, text messages) and the check of its webhooks' signatures. */
export { createTwilioClient, type TwilioClient } from "./client.server.ts";
export { isSignedByTwilio } from "./webhook-signature.server.ts";
export { twilioFromSettings } from "./start.server.ts";
