/** Call tracking: Twilio's webhooks, per-visit tracking numbers, the call log and its console views. */
export { callCounts, type CallCounts } from "./call-counts.server.ts";
export { releaseExpiredHolds } from "./holds.server.ts";
export { purgeExpiredCalls, twilioChannel, TWILIO_CHANNEL } from "./retention.server.ts";
export { callsFromPhone, listCalls, parseCallsQuery, recordingOfCall, type CallRow } from "./calls-list.server.ts";
export { callsCsv } from "./calls-csv.server.ts";
export {
  logIncomingCall,
  MISSED_STATUSES,
  recordOutcome,
  recordRecording,
  recordVoicemail,
  type EndedCall,
  type MissedStatus,
} from "./call-log.server.ts";
export { type MissedCallEmailSettings } from "./missed-call-email.server.ts";
export { forwardCall, hangUp, nothingToDo, offerVoicemail, type CallbackUrls } from "./twiml.server.ts";
export { holdNumber } from "./holds.server.ts";
export { poolExhaustion } from "./pool-exhaustion.server.ts";
export { answeredCallCounts, answeredCalls } from "./answered-calls.server.ts";
export { callsPage } from "./calls-page.server.ts";
export {
  createCallRouting,
  type CallPartners,
  type CallRoutingSettings,
  type RoutingStep,
} from "./call-routing.server.ts";
export { closeRingingOffers } from "./ring-tree.server.ts";
export { createCallDisputes, type CallDisputePage, type CallDisputes } from "./call-disputes.server.ts";
export { partnerCallStats } from "./partner-call-stats.server.ts";
