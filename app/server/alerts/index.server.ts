/**
 * Alerts to operators: Web Push to their devices, escalation of leads nobody opened, unanswered referrals,
 * and text messages through Twilio.
 */
export { startAlertSweeps } from "./sweeps.server.ts";
export { operatorAlert } from "./operator-alert.server.ts";
export { twilioTextSender } from "./twilio-sms.server.ts";
export { createPushAlerts, webPushSender, type PushAlerts } from "./push-alerts.server.ts";
export { loadVapidKeys } from "./vapid-keys.server.ts";
export {
  listPushSubscriptions,
  parsePushSubscription,
  removePushSubscription,
  savePushSubscription,
} from "./push-subscriptions.server.ts";
