import type { Database, RunStatement } from "../db/index.server.ts";
import { log } from "../log.server.ts";
import { sweepReferrals, type AutoReferrals } from "../partners/index.server.ts";
import { escalateUnansweredLeads } from "./escalation.server.ts";
import { operatorAlert, type AlertSettings } from "./operator-alert.server.ts";

/**
 * Every so often, on every instance: escalate leads nobody opened, take the automatic referrals' next steps, record
 * expired referral links, and alert on referrals nobody answered. Each is claimed in the database, so running on several instances
 * alerts once.
 */

export interface AlertSweepSettings extends AlertSettings {
  escalateMinutes: number;
  referralTimeoutMinutes: number;
  messageIdDomain: string;
  everyMs: number;
  /** "Refer new leads automatically": its next steps are taken before unanswered referrals are alerted on. */
  autoReferrals: AutoReferrals;
  /** Called when alerts were queued, so the outbox sends them now. */
  onQueued(): void;
}

export function startAlertSweeps(db: Database, run: RunStatement, settings: AlertSweepSettings) {
  async function sweep() {
    const escalated = await escalateUnansweredLeads(run, { ...settings, escalateMinutes: settings.escalateMinutes });
    // A step of the rules whose time is up goes to the next priority first: its offers then need no alert.
    await settings.autoReferrals.sweep();
    const referrals = await sweepReferrals(db, run, {
      timeoutMinutes: settings.referralTimeoutMinutes,
      messageIdDomain: settings.messageIdDomain,
      alert: (alert) => operatorAlert(settings, alert),
    });
    if (escalated + referrals.alerted + referrals.expired > 0) settings.onQueued();
  }
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = sweep().catch((error) => log.error({ err: error }, "alert sweep failed"));
  }, settings.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
