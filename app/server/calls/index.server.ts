/** Call tracking: Twilio's webhooks, per-visit tracking numbers, the call log and its console views. */
export { callWebhooks } from "./webhooks.server.ts";
export { numberEndpoint } from "./number-endpoint.server.ts";
export { callCounts, type CallCounts } from "./call-counts.server.ts";
export { releaseExpiredHolds } from "./holds.server.ts";
export { purgeExpiredCalls, twilioChannel, TWILIO_CHANNEL } from "./retention.server.ts";
export {
  callsCsv,
  callsFromPhone,
  listCalls,
  parseCallsQuery,
  recordingOfCall,
  type CallRow,
} from "./calls-list.server.ts";
