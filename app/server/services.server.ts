import type { Env } from "~/config/env.server.ts";
import { createSiteEventCounter, type SiteEventCounter, purgeExpiredCounts } from "./analytics/index.server.ts";
import { createConsoleAuth, type ConsoleAuth, loadSessionSecret } from "./console/index.server.ts";
import { openDatabase, type Database, type RunStatement } from "./db/index.server.ts";
import { pruneEndedWindows } from "./limits/index.server.ts";
import { createLeadStore, createLeadIntake, type LeadIntake, purgeExpiredLeads } from "./leads/index.server.ts";
import { createIntakePressure, createMailer, startOutboxWorker, type OutboxWorker } from "./outbox/index.server.ts";
import { emailBacklog, messageIdDomain } from "./outbox/index.server.ts";
import { log, setLogLevel } from "./log.server.ts";
import { callWebhooks, numberEndpoint } from "./http/index.server.ts";
import { purgeExpiredCalls, releaseExpiredHolds, twilioChannel, TWILIO_CHANNEL } from "./calls/index.server.ts";
import { createTwilioClient, isTwilioConfigured, type TwilioClient } from "./twilio/index.server.ts";

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
  /** What the readiness probe reports of email still to send. */
  outboxBacklog(): ReturnType<typeof emailBacklog>;
  /** Page views and call clicks, gathered in memory and added to the daily aggregates every few seconds. */
  siteEvents: SiteEventCounter;
  /** Call tracking, when Twilio is configured: its webhooks, the per-visit number endpoint and its REST client. */
  calls: CallTracking | undefined;
  close(): Promise<void>;
}

export interface CallTracking {
  webhooks: ReturnType<typeof callWebhooks>;
  numberEndpoint: ReturnType<typeof numberEndpoint>;
  twilio: TwilioClient;
}

const HOUR_SECONDS = 3_600;

export async function startServices(env: Env): Promise<AppServices> {
  setLogLevel(env.LOG_LEVEL);
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    pgliteDataDir: env.PGLITE_DATA_DIR,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.OUTBOX_DIR });
  log.info(`Leads are stored in ${database.description}; email goes to ${mailer.description}.`);

  const twilio = isTwilioConfigured(env)
    ? createTwilioClient({
        accountSid: env.TWILIO_ACCOUNT_SID,
        authToken: env.TWILIO_AUTH_TOKEN,
        apiBaseUrl: env.TWILIO_API_URL,
      })
    : undefined;

  const intakePressure = createIntakePressure();
  const outbox = startOutboxWorker(database.run, mailer, {
    channels: twilio ? { [TWILIO_CHANNEL]: twilioChannel(twilio) } : {},
    pollMs: env.OUTBOX_POLL_MS,
    retryBaseMs: env.OUTBOX_RETRY_BASE_MS,
    retryMaxMs: env.OUTBOX_RETRY_MAX_MS,
    beforeClaim: intakePressure.quiet,
  });
  const consoleAuth = createConsoleAuth({
    db: database.db,
    sessionSecret: await loadSessionSecret(env),
    siteUrl: env.SITE_URL,
    requireTwoStep: env.REQUIRE_TWO_STEP,
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
      // Calls follow the leads' retention, Twilio configured or not (their recordings' deletions wait in the outbox).
      purgeExpiredCalls(database.run).catch((error) => log.error({ err: error }, "retention purge of calls failed")),
      releaseExpiredHolds(database.run).catch((error) => log.error({ err: error }, "tracking number release failed")),
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
    onAccepted() {
      intakePressure.leadAccepted();
      outbox.nudge();
    },
  });

  const siteEvents = createSiteEventCounter({ run: database.run, flushMs: env.ANALYTICS_FLUSH_MS });

  const calls: CallTracking | undefined =
    twilio && isTwilioConfigured(env) && env.CALL_FORWARD_TO
      ? {
          twilio,
          webhooks: callWebhooks(database.run, {
            siteUrl: env.SITE_URL,
            authToken: env.TWILIO_AUTH_TOKEN,
            forwardTo: env.CALL_FORWARD_TO,
            recording: env.CALL_RECORDING === "on",
            siteNumber: env.PHONE_E164,
            pool: env.CALL_TRACKING_POOL,
            missedCallEmail: {
              leadsEmailTo: env.LEADS_EMAIL_TO,
              siteUrl: env.SITE_URL,
              timeZone: env.OPERATOR_TIME_ZONE,
              messageIdDomain: messageIdDomain(env.MAIL_FROM),
            },
            onEmailQueued: () => outbox.nudge(),
          }),
          numberEndpoint: numberEndpoint(database.run, {
            pool: env.CALL_TRACKING_POOL,
            displayTemplate: env.PHONE_DISPLAY,
          }),
        }
      : undefined;

  return {
    db: database.db,
    pgliteDataDir: env.DATABASE_URL || env.PGLITE_DATA_DIR.startsWith("memory://") ? undefined : env.PGLITE_DATA_DIR,
    run: database.run,
    leads,
    consoleAuth,
    outbox,
    outboxBacklog: () => emailBacklog(database.db),
    siteEvents,
    calls,
    async close() {
      clearInterval(housekeepingTimer);
      await siteEvents.close();
      await Promise.all([outbox.stop(), housekeepingRun]);
      mailer.close();
      await database.close();
    },
  };
}
