import type { Env } from "~/config/env.server.ts";
import type { Database, RunStatement } from "../db/index.server.ts";
import type { OutboundRule } from "../egress/index.server.ts";
import { messageIdDomain, type ChannelSender } from "../outbox/index.server.ts";
import type { AutoReferrals } from "../partners/index.server.ts";
import { operatorAlert, type AlertSettings } from "./operator-alert.server.ts";
import { createPushAlerts, webPushSender } from "./push-alerts.server.ts";
import { startAlertSweeps } from "./sweeps.server.ts";
import { loadVapidKeys } from "./vapid-keys.server.ts";

/** How often each instance looks for leads and referrals to escalate. */
const ALERT_SWEEP_MS = 30_000;

/**
 * Web Push to operators' devices: the VAPID key pair (set, or generated once into the data folder), where a device's
 * endpoint may be (https on a public address, unless PUSH_ALLOW_PRIVATE), and the outbox's channel that sends them.
 */
export async function webPushFromSettings(env: Env, db: Database) {
  const vapid = await loadVapidKeys({
    publicKey: env.VAPID_PUBLIC_KEY,
    privateKey: env.VAPID_PRIVATE_KEY,
    pgliteDataDir: env.PGLITE_DATA_DIR,
  });
  const endpointRule: OutboundRule = { allowPrivate: env.PUSH_ALLOW_PRIVATE };
  const subject = env.VAPID_SUBJECT ?? `mailto:${env.LEADS_EMAIL_TO}`;
  const channel: ChannelSender = webPushSender(db, { ...vapid, subject }, endpointRule);
  return { publicKey: vapid.publicKey, endpointRule, channel };
}

/** New leads, opt-outs, missed calls and customers' texts, pushed to every operator's device through the outbox. */
export function pushAlertsFromSettings(env: Env, run: RunStatement, onQueued: () => void) {
  return createPushAlerts({ run, messageIdFrom: env.MAIL_FROM, companyName: env.COMPANY_NAME, onQueued });
}

/** Where alerts to the operator go: an email to LEADS_EMAIL_TO and, when texts are on, a text to ALERT_SMS_TO. */
function alertSettings(env: Env, texts: boolean): AlertSettings {
  return {
    companyName: env.COMPANY_NAME,
    leadsEmailTo: env.LEADS_EMAIL_TO,
    siteUrl: env.SITE_URL,
    alertSmsTo: texts ? env.ALERT_SMS_TO : undefined,
  };
}

/** An alert to the operator (an unanswered referral, say) as the email and text that carry it. */
export function operatorAlertsFromSettings(env: Env, texts: boolean) {
  const settings = alertSettings(env, texts);
  return (alert: Parameters<typeof operatorAlert>[1]) => operatorAlert(settings, alert);
}

/**
 * Every 30 seconds, a lead nobody opened within ALERT_ESCALATE_MINUTES and a referral nobody answered within
 * REFERRAL_TIMEOUT_MINUTES are escalated (an email, and a text to ALERT_SMS_TO when texts are on), after the next
 * steps of "Refer new leads automatically" are taken; stop() ends it.
 */
export function startEscalations(
  env: Env,
  database: { db: Database; run: RunStatement },
  options: { texts: boolean; autoReferrals: AutoReferrals; onQueued: () => void },
) {
  return startAlertSweeps(database.db, database.run, {
    ...alertSettings(env, options.texts),
    escalateMinutes: env.ALERT_ESCALATE_MINUTES,
    referralTimeoutMinutes: env.REFERRAL_TIMEOUT_MINUTES,
    messageIdDomain: messageIdDomain(env.MAIL_FROM),
    everyMs: ALERT_SWEEP_MS,
    autoReferrals: options.autoReferrals,
    onQueued: options.onQueued,
  });
}
