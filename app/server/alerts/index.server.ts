/**
 * Alerts to operators: Web Push to their devices, escalation of leads nobody opened, unanswered referrals,
 * and text messages through Twilio.
 */
export { twilioTextSender } from "./twilio-sms.server.ts";
export { createPushAlerts, webPushSender, type PushAlerts } from "./push-alerts.server.ts";
export {
  listPushSubscriptions,
  parsePushSubscription,
  removePushSubscription,
  savePushSubscription,
} from "./push-subscriptions.server.ts";
export {
  operatorAlertsFromSettings,
  pushAlertsFromSettings,
  startEscalations,
  webPushFromSettings,
} from "./start.server.ts";
