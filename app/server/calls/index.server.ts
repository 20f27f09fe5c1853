/** Call tracking: Twilio's webhooks, per-visit tracking numbers, the call log and its console views. */
export { callWebhooks, CALL_WEBHOOK_PATHS, type CallWebhookSettings } from "./webhooks.server.ts";
export { numberEndpoint } from "./number-endpoint.server.ts";
export { releaseExpiredHolds, HOLD_MS } from "./holds.server.ts";
export { purgeExpiredCalls, twilioChannel, TWILIO_CHANNEL } from "./retention.server.ts";
export {
  callsCsv,
  callsFromPhone,
  listCalls,
  parseCallsQuery,
  recordingOfCall,
  type CallRow,
} from "./calls-list.server.ts";
