import type { Env } from "~/config/env.server.ts";
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
import { startWeeklyDigest, type ConversionSources } from "./conversions/index.server.ts";

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
  /** Page views and call clicks, gathered in memory and added to the daily aggregates every few seconds. */
  siteEvents: SiteEventCounter;
  /** What the conversion downloads and the dashboard's cost figures read besides the database. */
  conversions: ConversionSources;
  close(): Promise<void>;
}

const HOUR_SECONDS = 3_600;

export async function startServices(env: Env): Promise<AppServices> {
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    pgliteDataDir: env.PGLITE_DATA_DIR,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.OUTBOX_DIR });
  log.info(`Leads are stored in ${database.description}; email goes to ${mailer.description}.`);

  const intakePressure = createIntakePressure();
  const outbox = startOutboxWorker(database.run, mailer, {
    pollMs: env.OUTBOX_POLL_MS,
    retryBaseMs: env.OUTBOX_RETRY_BASE_MS,
    retryMaxMs: env.OUTBOX_RETRY_MAX_MS,
    beforeClaim: intakePressure.quiet,
  });
  const consoleAuth = createConsoleAuth({
    db: database.db,
    sessionSecret: await loadSessionSecret(env),
    siteUrl: env.SITE_URL,
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
    onAccepted() {
      intakePressure.leadAccepted();
      outbox.nudge();
    },
  });

  const siteEvents = createSiteEventCounter({ run: database.run, flushMs: env.ANALYTICS_FLUSH_MS });

  const weeklyDigest =
    env.DIGEST === "on"
      ? startWeeklyDigest(
          database.db,
          database.run,
          {
            timeZone: env.OPERATOR_TIME_ZONE,
            currency: env.CONVERSION_CURRENCY,
            leadsEmailTo: env.LEADS_EMAIL_TO,
            mailFrom: env.MAIL_FROM,
            companyName: env.COMPANY_NAME,
            siteUrl: env.SITE_URL,
          },
          () => outbox.nudge(),
        )
      : undefined;

  return {
    db: database.db,
    pgliteDataDir: env.DATABASE_URL || env.PGLITE_DATA_DIR.startsWith("memory://") ? undefined : env.PGLITE_DATA_DIR,
    run: database.run,
    leads,
    consoleAuth,
    outbox,
    siteEvents,
    // Call tracking provides answeredCalls; until then the "Answered call" action and figures are not shown.
    conversions: { timeZone: env.OPERATOR_TIME_ZONE, currency: env.CONVERSION_CURRENCY, answeredCalls: undefined },
    async close() {
      clearInterval(housekeepingTimer);
      await weeklyDigest?.stop();
      await siteEvents.close();
      await Promise.all([outbox.stop(), housekeepingRun]);
      mailer.close();
      await database.close();
    },
  };
}
