import { createHmac } from "node:crypto";
import type { Env } from "~/config/env.server.ts";
import {
  createPushAlerts,
  loadVapidKeys,
  startAlertSweeps,
  twilioTextSender,
  webPushSender,
  type PushAlerts,
} from "./alerts/index.server.ts";
import { createReferrals, type Referrals } from "./partners/index.server.ts";
import { createSiteEventCounter, type SiteEventCounter } from "./analytics/site-event-counter.server.ts";
import { createConsoleAuth, type ConsoleAuth } from "./console/auth.server.ts";
import { loadSessionSecret } from "./console/session-secret.server.ts";
import { openDatabase, type Database, type RunStatement } from "./db/db.server.ts";
import { pruneEndedWindows } from "./limits/window-limit.server.ts";
import { createLeadStore } from "./leads/store.server.ts";
import { createIntakePressure } from "./outbox/intake-pressure.server.ts";
import { createLeadIntake, type LeadIntake } from "./leads/intake.server.ts";
import { createMailer } from "./outbox/mail.server.ts";
import { startOutboxWorker, type OutboxWorker } from "./outbox/outbox.server.ts";
import { messageIdDomain } from "./outbox/queue.server.ts";
import { log } from "./log.server.ts";
import { purgeExpiredCounts } from "./analytics/retention.server.ts";
import { purgeExpiredLeads } from "./leads/retention.server.ts";

/** The long-lived parts of the server process, opened once at start and closed on shutdown. */
export interface AppServices {
  db: Database;
  /** The database's folder when it is embedded and on disk (local commands reach it through the server). */
  pgliteDataDir: string | undefined;
  /** One hand-written statement, one round trip (the hot path's statements). */
  run: RunStatement;
  leads: LeadIntake;
  consoleAuth: ConsoleAuth;
  outbox: OutboxWorker;
  /** Offering leads to partner plumbers, and their answers through the link. */
  referrals: Referrals;
  /** Web Push to operators' devices: new leads, opt-outs and (from call tracking) missed calls. */
  pushAlerts: PushAlerts;
  /** The public VAPID key browsers subscribe with. */
  vapidPublicKey: string;
  /** Page views and call clicks, gathered in memory and added to the daily aggregates every few seconds. */
  siteEvents: SiteEventCounter;
  close(): Promise<void>;
}

const HOUR_SECONDS = 3_600;
/** How often each instance looks for leads and referrals to escalate. */
const ALERT_SWEEP_MS = 30_000;

export async function startServices(env: Env): Promise<AppServices> {
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    pgliteDataDir: env.PGLITE_DATA_DIR,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.OUTBOX_DIR });
  log.info(`Leads are stored in ${database.description}; email goes to ${mailer.description}.`);

  // Text messages go through Twilio when all of its settings are given.
  const twilio =
    env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM_NUMBER
      ? twilioTextSender({
          accountSid: env.TWILIO_ACCOUNT_SID,
          authToken: env.TWILIO_AUTH_TOKEN,
          from: env.TWILIO_FROM_NUMBER,
          apiUrl: env.TWILIO_API_URL,
        })
      : undefined;
  const vapid = await loadVapidKeys({
    publicKey: env.VAPID_PUBLIC_KEY,
    privateKey: env.VAPID_PRIVATE_KEY,
    pgliteDataDir: env.PGLITE_DATA_DIR,
  });
  const intakePressure = createIntakePressure();
  const outbox = startOutboxWorker(database.run, mailer, {
    pollMs: env.OUTBOX_POLL_MS,
    retryBaseMs: env.OUTBOX_RETRY_BASE_MS,
    retryMaxMs: env.OUTBOX_RETRY_MAX_MS,
    beforeClaim: intakePressure.quiet,
    channels: {
      push: webPushSender(database.db, { ...vapid, subject: env.VAPID_SUBJECT ?? `mailto:${env.LEADS_EMAIL_TO}` }),
      ...(twilio ? { sms: twilio } : {}),
    },
  });
  const pushAlerts = createPushAlerts({
    db: database.db,
    run: database.run,
    messageIdFrom: env.MAIL_FROM,
    companyName: env.COMPANY_NAME,
    onQueued: () => outbox.nudge(),
  });
  const sessionSecret = await loadSessionSecret(env);
  const consoleAuth = createConsoleAuth({ db: database.db, sessionSecret, siteUrl: env.SITE_URL });
  const alertSweeps = startAlertSweeps(database.db, database.run, {
    companyName: env.COMPANY_NAME,
    leadsEmailTo: env.LEADS_EMAIL_TO,
    siteUrl: env.SITE_URL,
    alertSmsTo: twilio ? env.ALERT_SMS_TO : undefined,
    escalateMinutes: env.ALERT_ESCALATE_MINUTES,
    referralTimeoutMinutes: env.REFERRAL_TIMEOUT_MINUTES,
    messageIdDomain: messageIdDomain(env.MAIL_FROM),
    everyMs: ALERT_SWEEP_MS,
    onQueued: () => outbox.nudge(),
  });
  const referrals = createReferrals({
    db: database.db,
    run: database.run,
    // Referral links are signed with a key of their own, derived from the session key.
    tokenKey: createHmac("sha256", sessionSecret).update("referral links").digest("hex"),
    siteUrl: env.SITE_URL,
    messageIdDomain: messageIdDomain(env.MAIL_FROM),
    companyName: env.COMPANY_NAME,
    replyTo: env.LEADS_EMAIL_TO,
    tokenHours: env.REFERRAL_TOKEN_HOURS,
    texts: twilio !== undefined,
    pageLimit: { perWindow: 30, windowSeconds: 600 },
    onQueued: () => outbox.nudge(),
  });
  // Housekeeping at start (a server restarted more often than hourly must purge too) and hourly after:
  // expired rate-limit windows and sessions, leads past the privacy policy's retention period with
  // their emails, and daily counts past theirs. It runs beside the requests, not before them.
  const housekeeping = () =>
    Promise.all([
      pruneEndedWindows(database.db, HOUR_SECONDS).catch((error) =>
        log.error({ err: error }, "rate limit pruning failed"),
      ),
      purgeExpiredLeads(database.db, { outboxDir: env.OUTBOX_DIR }).catch((error) =>
        log.error({ err: error }, "retention purge failed"),
      ),
      purgeExpiredCounts(database.db).catch((error) => log.error({ err: error }, "retention purge of counts failed")),
      consoleAuth.prune().catch((error) => log.error({ err: error }, "session pruning failed")),
    ]);
  let housekeepingRun = housekeeping();
  const housekeepingTimer = setInterval(() => (housekeepingRun = housekeeping()), HOUR_SECONDS * 1000);
  housekeepingTimer.unref();

  const leads = createLeadIntake({
    store: createLeadStore({
      run: database.run,
      formLimit: { perWindow: env.FORM_RATE_LIMIT_PER_HOUR, windowSeconds: HOUR_SECONDS },
      messageIdDomain: messageIdDomain(env.MAIL_FROM),
    }),
    emailSettings: {
      companyName: env.COMPANY_NAME,
      leadsEmailTo: env.LEADS_EMAIL_TO,
      privacyEmail: env.LEGAL_OPERATOR_EMAIL,
      consentText: env.CONTACT_CONSENT_TEXT,
    },
    onAccepted(lead) {
      intakePressure.leadAccepted();
      outbox.nudge();
      // The email is already queued with the lead; the push to operators' devices follows it.
      (lead.kind === "contact" ? pushAlerts.newLead(lead) : pushAlerts.optOut()).catch((error) =>
        log.error({ err: error }, "queueing the push alert failed"),
      );
    },
  });

  const siteEvents = createSiteEventCounter({ run: database.run, flushMs: env.ANALYTICS_FLUSH_MS });

  return {
    db: database.db,
    pgliteDataDir: env.DATABASE_URL || env.PGLITE_DATA_DIR.startsWith("memory://") ? undefined : env.PGLITE_DATA_DIR,
    run: database.run,
    leads,
    consoleAuth,
    outbox,
    referrals,
    pushAlerts,
    vapidPublicKey: vapid.publicKey,
    siteEvents,
    async close() {
      clearInterval(housekeepingTimer);
      await alertSweeps.stop();
      await siteEvents.close();
      await Promise.all([outbox.stop(), housekeepingRun]);
      mailer.close();
      await database.close();
    },
  };
}
