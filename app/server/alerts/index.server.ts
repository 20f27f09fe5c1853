/** Alerts to the operator: escalation of leads nobody opened, unanswered referrals, and text messages through Twilio. */
export { startAlertSweeps } from "./sweeps.server.ts";
export { twilioTextSender, type TwilioSettings } from "./twilio-sms.server.ts";
