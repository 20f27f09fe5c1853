import { createHmac } from "node:crypto";
import { embeddedDatabaseFolder, type Env } from "~/config/env.server.ts";
import {
  createPushAlerts,
  loadVapidKeys,
  operatorAlert,
  startAlertSweeps,
  twilioTextSender,
  webPushSender,
  type PushAlerts,
} from "./alerts/index.server.ts";
import {
  callablePartners,
  createAutoReferrals,
  createReferrals,
  findPartner,
  referralToken,
  routingSettings,
  textableNumber,
  verifyReferralToken,
  type Referrals,
} from "./partners/index.server.ts";
import type { OutboundRule } from "./egress/index.server.ts";
import { createReadApi, type ReadApi } from "./api/index.server.ts";
import { createSiteEventCounter, type SiteEventCounter } from "./analytics/index.server.ts";
import {
  createConsoleAuth,
  createConsoleForms,
  type ConsoleAuth,
  type ConsoleForms,
  issueSetupCode,
  loadSessionSecret,
} from "./console/index.server.ts";
import {
  analyzeChangedTables,
  openDatabase,
  vacuumChangedTables,
  type Database,
  type RunStatement,
  type StreamRows,
} from "./db/index.server.ts";
import { pruneEndedWindows } from "./limits/index.server.ts";
import { createLeadStore, createLeadIntake, type LeadIntake, sumRecentDays } from "./leads/index.server.ts";
import { createIntakePressure, createMailer, startOutboxWorker, type OutboxWorker } from "./outbox/index.server.ts";
import { emailBacklog, messageIdDomain } from "./outbox/index.server.ts";
import { log, setLogLevel } from "./log.server.ts";
import { retentionPurges } from "./retention-purges.server.ts";
import { callWebhooks, numberEndpoint, TEXT_WEBHOOK_PATHS, textWebhooks } from "./http/index.server.ts";
import {
  answeredCallCounts,
  answeredCalls,
  callsFromPhone,
  releaseExpiredHolds,
  twilioChannel,
  TWILIO_CHANNEL,
  createCallDisputes,
  type CallDisputes,
} from "./calls/index.server.ts";
import { createTwilioClient, isTwilioConfigured, type TwilioClient } from "./twilio/index.server.ts";
import { startWeeklyDigest, type ConversionSources } from "./conversions/index.server.ts";
import { backupSettings, createBackups, type Backups } from "./backups/index.server.ts";
import { createTexts, isOptedOut, TEXT_QUEUE, textQueue, threadPath, type Texts } from "./texts/index.server.ts";
import {
  createWebhookConsole,
  purgeOldDeliveries,
  webhookQueue,
  WEBHOOK_QUEUE,
  type WebhookConsole,
} from "./webhooks/index.server.ts";

/** The long-lived parts of the server process, opened once at start and closed on shutdown. */
export interface AppServices {
  db: Database;
  /** The database's folder when it is embedded and on disk (local commands reach it through the server). */
  pgliteDataDir: string | undefined;
  /** One hand-written statement, one round trip (the hot path's statements). */
  run: RunStatement;
  /** PostgreSQL's rows as a stream (the leads CSV); none on the embedded database. */
  streamRows: StreamRows | undefined;
  leads: LeadIntake;
  consoleAuth: ConsoleAuth;
  /** Console forms: each acted on once, asked about first when it cannot be undone, and confirmed. */
  consoleForms: ConsoleForms;
  outbox: OutboxWorker;
  /** What the readiness probe reports of email still to send. */
  outboxBacklog(): ReturnType<typeof emailBacklog>;
  /** Leads and calls for operators' own tools, by API key. */
  readApi: ReadApi;
  /** Offering leads to partner plumbers, and their answers through the link. */
  referrals: Referrals;
  /** Web Push to operators' devices: new leads, opt-outs and missed calls. */
  pushAlerts: PushAlerts;
  /** The public VAPID key browsers subscribe with. */
  vapidPublicKey: string;
  /** Where a device's push endpoint may be: https on a public address, unless PUSH_ALLOW_PRIVATE. */
  pushEndpointRule: OutboundRule;
  /** Page views and call clicks, gathered in memory and added to the daily aggregates every few seconds. */
  siteEvents: SiteEventCounter;
  /** Call tracking, when Twilio is configured: its webhooks, the per-visit number endpoint and its REST client. */
  calls: CallTracking | undefined;
  /** Texts with customers, when Twilio and TWILIO_FROM_NUMBER are configured: the threads and Twilio's webhooks. */
  texts: TextMessaging | undefined;
  /** What the conversion downloads and the dashboard's cost figures read besides the database. */
  conversions: ConversionSources;
  /** Webhook endpoints and their deliveries (the Integrations page). */
  webhooks: WebhookConsole;
  /** Backups of the whole database: `npm run backup` through the command socket, and the daily one. */
  backups: Backups;
  close(): Promise<void>;
}

export interface TextMessaging extends Texts {
  webhooks: ReturnType<typeof textWebhooks>;
}

export interface CallTracking {
  webhooks: ReturnType<typeof callWebhooks>;
  numberEndpoint: ReturnType<typeof numberEndpoint>;
  twilio: TwilioClient;
  /** Partners' disputes of charged calls, by the signed link in the email after the call. */
  disputes: CallDisputes;
}

const HOUR_SECONDS = 3_600;
const SETUP_FRAME = "=".repeat(72);
/** How often each instance looks for monthly statements to issue. */
const STATEMENT_CHECK_MS = 15 * 60_000;
/** How often each instance looks for leads and referrals to escalate. */
const ALERT_SWEEP_MS = 30_000;

export async function startServices(env: Env): Promise<AppServices> {
  setLogLevel(env.LOG_LEVEL);
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    pgliteDataDir: env.PGLITE_DATA_DIR,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.OUTBOX_DIR });
  if (env.siteUrlNotice) log[env.siteUrlNotice.level](env.siteUrlNotice.message);
  log.info(`Leads are stored in ${database.description}; email goes to ${mailer.description}.`);

  // Call tracking, text messages and the deletion of recordings go through Twilio when it is configured;
  // texts also need the number they are sent from.
  const twilio = isTwilioConfigured(env)
    ? createTwilioClient({
        accountSid: env.TWILIO_ACCOUNT_SID,
        authToken: env.TWILIO_AUTH_TOKEN,
        apiBaseUrl: env.TWILIO_API_URL,
        smsFrom: env.TWILIO_FROM_NUMBER,
      })
    : undefined;
  // No text of any kind goes to a number that replied STOP.
  const textSender =
    twilio && env.TWILIO_FROM_NUMBER
      ? twilioTextSender(twilio, (number) => isOptedOut(database.run, number))
      : undefined;
  const vapid = await loadVapidKeys({
    publicKey: env.VAPID_PUBLIC_KEY,
    privateKey: env.VAPID_PRIVATE_KEY,
    pgliteDataDir: env.PGLITE_DATA_DIR,
  });
  const pushEndpointRule: OutboundRule = { allowPrivate: env.PUSH_ALLOW_PRIVATE };
  const intakePressure = createIntakePressure();
  const webhookEndpointRule: OutboundRule = { allowPrivate: env.WEBHOOK_ALLOW_PRIVATE };
  const outbox = startOutboxWorker(database.run, mailer, {
    pollMs: env.OUTBOX_POLL_MS,
    retryBaseMs: env.OUTBOX_RETRY_BASE_MS,
    retryMaxMs: env.OUTBOX_RETRY_MAX_MS,
    beforeClaim: intakePressure.quiet,
    channels: {
      push: webPushSender(
        database.db,
        { ...vapid, subject: env.VAPID_SUBJECT ?? `mailto:${env.LEADS_EMAIL_TO}` },
        pushEndpointRule,
      ),
      ...(textSender ? { sms: textSender } : {}),
      ...(twilio ? { [TWILIO_CHANNEL]: twilioChannel(twilio) } : {}),
    },
    queues: [
      webhookQueue({
        run: database.run,
        rule: webhookEndpointRule,
        leadsEmailTo: env.LEADS_EMAIL_TO,
        siteUrl: env.SITE_URL,
        companyName: env.COMPANY_NAME,
        messageIdDomain: messageIdDomain(env.MAIL_FROM),
      }),
      ...(twilio && textSender
        ? [
            textQueue({
              run: database.run,
              twilio,
              statusCallbackUrl: `${env.SITE_URL}${TEXT_WEBHOOK_PATHS.status}`,
            }),
          ]
        : []),
    ],
  });
  const webhooks = createWebhookConsole({
    db: database.db,
    rule: webhookEndpointRule,
    onQueued: () => outbox.nudge(WEBHOOK_QUEUE),
  });
  const pushAlerts = createPushAlerts({
    run: database.run,
    messageIdFrom: env.MAIL_FROM,
    companyName: env.COMPANY_NAME,
    onQueued: () => outbox.nudge("messages"),
  });
  const sessionSecret = await loadSessionSecret(env);
  const consoleAuth = createConsoleAuth({
    db: database.db,
    sessionSecret,
    siteUrl: env.SITE_URL,
    requireTwoStep: env.REQUIRE_TWO_STEP,
  });
  const consoleForms = createConsoleForms({ db: database.db, sessionSecret, siteUrl: env.SITE_URL });
  // First run: until an operator exists, the console's set-up page takes a code only the server's log shows.
  const setupCode = await issueSetupCode(database.db);
  if (setupCode) {
    // Framed, so that it stands out among the start's lines in a terminal.
    log.warn(
      `\n${SETUP_FRAME}\n  No console operator yet: create the first one at ${env.SITE_URL}/admin/setup\n` +
        `  with the set-up code ${setupCode}\n${SETUP_FRAME}`,
    );
  }
  // Referral links (and partners' other links) are signed with a key of their own, derived from the session key.
  const linkKey = createHmac("sha256", sessionSecret).update("referral links").digest("hex");
  const referrals = createReferrals({
    db: database.db,
    run: database.run,
    tokenKey: linkKey,
    siteUrl: env.SITE_URL,
    messageIdDomain: messageIdDomain(env.MAIL_FROM),
    companyName: env.COMPANY_NAME,
    replyTo: env.LEADS_EMAIL_TO,
    tokenHours: env.REFERRAL_TOKEN_HOURS,
    returnWindowDays: env.RETURN_WINDOW_DAYS,
    currency: env.CONVERSION_CURRENCY,
    timeZone: env.OPERATOR_TIME_ZONE,
    texts: textSender !== undefined,
    pageLimit: { perWindow: 30, windowSeconds: 600 },
    onQueued: () => outbox.nudge(),
  });
  const alertSettings = {
    companyName: env.COMPANY_NAME,
    leadsEmailTo: env.LEADS_EMAIL_TO,
    siteUrl: env.SITE_URL,
    alertSmsTo: textSender ? env.ALERT_SMS_TO : undefined,
  };
  const autoReferrals = createAutoReferrals({
    db: database.db,
    run: database.run,
    referrals,
    timeZone: env.OPERATOR_TIME_ZONE,
    timeoutMinutes: env.REFERRAL_TIMEOUT_MINUTES,
    messageIdDomain: messageIdDomain(env.MAIL_FROM),
    alert: (alert) => operatorAlert(alertSettings, alert),
    onQueued: () => outbox.nudge(),
  });
  const alertSweeps = startAlertSweeps(database.db, database.run, {
    ...alertSettings,
    escalateMinutes: env.ALERT_ESCALATE_MINUTES,
    referralTimeoutMinutes: env.REFERRAL_TIMEOUT_MINUTES,
    messageIdDomain: messageIdDomain(env.MAIL_FROM),
    everyMs: ALERT_SWEEP_MS,
    autoReferrals,
    onQueued: () => outbox.nudge(),
  });
  // Monthly statements: due from the 1st at 08:00; each instance looks every 15 minutes, and each partner's
  // statement of a month is issued once (a unique index), whichever instance gets there first.
  let statementsRun: Promise<unknown> = Promise.resolve();
  const issueStatements = () =>
    (statementsRun = referrals
      .issueMonthlyStatements()
      .then((issued) => issued > 0 && log.info(`${issued} monthly statements issued`))
      .catch((error) => log.error({ err: error }, "monthly statements failed")));
  void issueStatements();
  const statementsTimer = setInterval(issueStatements, STATEMENT_CHECK_MS);
  statementsTimer.unref();

  // Housekeeping at start (a server restarted more often than hourly must purge too) and hourly after:
  // expired rate-limit windows and sessions, leads past the privacy policy's retention period with
  // their emails, and daily counts past theirs; and the leads' daily totals of the days that are over, so that
  // no dashboard view waits for them. It runs beside the requests, not before them, and one task after another:
  // on the embedded database a request waits behind every statement queued before it, so it meets at most one of
  // housekeeping's, not one of each task's. A task that fails is logged and the next one still runs; once the
  // server is closing, no task starts (each one's work is left whole for the next start).
  const housekeepingTasks: [string, () => Promise<unknown>][] = [
    ["rate limit pruning", () => pruneEndedWindows(database.db, HOUR_SECONDS)],
    ...retentionPurges(database, { outboxDir: env.OUTBOX_DIR, pausing: Boolean(env.DATABASE_URL) }).map(
      ([what, purge]): [string, () => Promise<unknown>] => [`retention purge of ${what}`, purge],
    ),
    ["summing the leads' days", () => sumRecentDays(database.db)],
    ["tracking number release", () => releaseExpiredHolds(database.run)],
    ["session pruning", () => consoleAuth.prune()],
    ["console form key pruning", () => consoleForms.prune()],
    ["webhook delivery purge", () => purgeOldDeliveries(database.run)],
  ];
  // The embedded database runs no autovacuum to reuse the space of deleted rows and keep its planner statistics up
  // to date: housekeeping does, after the purges have changed the tables. PostgreSQL's autovacuum does it on its own.
  if (!env.DATABASE_URL) {
    housekeepingTasks.push(
      [
        "vacuum",
        async () => {
          const vacuumed = await vacuumChangedTables(database.run);
          if (vacuumed.length > 0) log.info(`vacuumed ${vacuumed.join(", ")}`);
        },
      ],
      [
        "planner statistics",
        async () => {
          const analyzed = await analyzeChangedTables(database.run);
          if (analyzed.length > 0) log.info(`planner statistics made for ${analyzed.join(", ")}`);
        },
      ],
    );
  }
  let closing = false;
  const housekeeping = async () => {
    for (const [name, task] of housekeepingTasks) {
      if (closing) return;
      await task().catch((error) => log.error({ err: error }, `${name} failed`));
    }
  };
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
      outbox.nudge("emails");
      if (lead.kind === "contact" && lead.webhooks) outbox.nudge(WEBHOOK_QUEUE);
      // The email is already queued with the lead; the push to operators' devices follows it.
      (lead.kind === "contact" ? pushAlerts.newLead(lead) : pushAlerts.optOut()).catch((error) =>
        log.error({ err: error }, "queueing the push alert failed"),
      );
      // Referred by the rules after it is stored, never in its request; the sweep catches one left by a stop.
      if (lead.kind === "contact" && lead.zip) {
        autoReferrals.referNew(lead.id).catch((error) => log.error({ err: error }, "automatic referral failed"));
      }
    },
  });

  const siteEvents = createSiteEventCounter({ run: database.run, flushMs: env.ANALYTICS_FLUSH_MS });

  const textService =
    textSender && env.TWILIO_FROM_NUMBER
      ? createTexts({
          db: database.db,
          run: database.run,
          fromNumber: env.TWILIO_FROM_NUMBER,
          companyName: env.COMPANY_NAME,
          phoneDisplay: env.PHONE_DISPLAY,
          timeZone: env.OPERATOR_TIME_ZONE,
          quietHours: env.TEXT_QUIET_HOURS === "on",
          missedCallText: env.MISSED_CALL_TEXT === "on",
          textBackCap: {
            perHour: env.MISSED_CALL_TEXT_PER_HOUR,
            alertTo: env.LEADS_EMAIL_TO,
            siteUrl: env.SITE_URL,
            messageIdDomain: messageIdDomain(env.MAIL_FROM),
          },
          numberCalledBy: async (customer) =>
            (await callsFromPhone(database.db, customer, env.OPERATOR_TIME_ZONE))[0]?.called ?? null,
          onReceived: (customer) =>
            void pushAlerts
              .textReceived({ url: threadPath(customer) })
              .catch((error) => log.error({ err: error }, "queueing the push alert failed")),
          onQueued: () => {
            outbox.nudge(TEXT_QUEUE);
            outbox.nudge(WEBHOOK_QUEUE);
          },
        })
      : undefined;
  const texts: TextMessaging | undefined =
    textService && env.TWILIO_AUTH_TOKEN
      ? {
          ...textService,
          webhooks: textWebhooks(textService, {
            siteUrl: env.SITE_URL,
            authToken: env.TWILIO_AUTH_TOKEN,
          }),
        }
      : undefined;

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
            onEmailQueued: () => {
              outbox.nudge();
              // A missed call or a voicemail reaches the operators' phones too.
              pushAlerts
                .missedCall({ url: "/admin/calls" })
                .catch((error) => log.error({ err: error }, "queueing the push alert failed"));
            },
            onWebhooksQueued: () => outbox.nudge(WEBHOOK_QUEUE),
            // The text-back is queued before Twilio hears the call's outcome was taken.
            onMissedCall: async (call) => texts?.textBack(call),
            routing: {
              partners: {
                routingOn: async () => (await routingSettings(database.db)).routeCalls,
                available: async (zip, service) =>
                  (
                    await callablePartners(database.db, {
                      zip,
                      service,
                      at: new Date(),
                      timeZone: env.OPERATOR_TIME_ZONE,
                    })
                  ).map(({ callFeeMinor, ...partner }) => ({ ...partner, feeMinor: callFeeMinor })),
                contact: async (partnerId) => {
                  const partner = await findPartner(database.db, partnerId);
                  return partner && { name: partner.name, email: partner.email, textTo: textableNumber(partner.phone) };
                },
                disputeLink: (callId) => `${env.SITE_URL}/d/${referralToken(linkKey, callId, "call-dispute")}`,
              },
              settings: {
                companyName: env.COMPANY_NAME,
                askZip: env.CALL_ASK_ZIP === "on",
                ringSeconds: env.CALL_PARTNER_RING_SECONDS,
                treeSize: env.CALL_RING_TREE_SIZE,
                billableSeconds: env.BILLABLE_CALL_SECONDS,
                repeatCallerDays: env.REPEAT_CALLER_DAYS,
                returnWindowDays: env.RETURN_WINDOW_DAYS,
                timeZone: env.OPERATOR_TIME_ZONE,
                currency: env.CONVERSION_CURRENCY,
                messageIdDomain: messageIdDomain(env.MAIL_FROM),
                texts: textSender !== undefined,
              },
              onNoticeQueued: () => outbox.nudge(),
            },
          }),
          disputes: createCallDisputes({
            db: database.db,
            run: database.run,
            verify: (token) => verifyReferralToken(linkKey, token, "call-dispute"),
            currency: env.CONVERSION_CURRENCY,
            timeZone: env.OPERATOR_TIME_ZONE,
            returnWindowDays: env.RETURN_WINDOW_DAYS,
          }),
          numberEndpoint: numberEndpoint(database.run, {
            pool: env.CALL_TRACKING_POOL,
            clientKeySecret: createHmac("sha256", sessionSecret).update("number hold clients").digest("hex"),
            displayTemplate: env.PHONE_DISPLAY,
          }),
        }
      : undefined;

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

  const backups = createBackups({
    db: database.db,
    run: database.run,
    databaseUrl: env.DATABASE_URL,
    settings: backupSettings(env),
  });
  const stopBackups = backups.start((error) => log.error({ err: error }, "the daily backup failed"));

  return {
    db: database.db,
    pgliteDataDir: embeddedDatabaseFolder(env),
    run: database.run,
    streamRows: database.streamRows,
    leads,
    consoleAuth,
    consoleForms,
    outbox,
    outboxBacklog: () => emailBacklog(database.db),
    referrals,
    readApi: createReadApi({
      db: database.db,
      run: database.run,
      perMinute: env.API_RATE_LIMIT_PER_MINUTE,
      // A statement is cancelled after its timeout, and commits within a second of ending.
      settleMs: env.DATABASE_STATEMENT_TIMEOUT_MS + 1_000,
      siteUrl: env.SITE_URL,
    }),
    pushAlerts,
    vapidPublicKey: vapid.publicKey,
    pushEndpointRule,
    siteEvents,
    calls,
    texts,
    conversions: {
      timeZone: env.OPERATOR_TIME_ZONE,
      currency: env.CONVERSION_CURRENCY,
      // With call tracking on, answered calls are conversions too.
      answeredCalls: calls
        ? {
            list: (from, until) => answeredCalls(database.db, from, until),
            counts: (from, until, minSeconds) => answeredCallCounts(database.db, from, until, minSeconds),
          }
        : undefined,
    },
    webhooks,
    backups,
    async close() {
      closing = true;
      await stopBackups();
      clearInterval(housekeepingTimer);
      clearInterval(statementsTimer);
      await statementsRun;
      await weeklyDigest?.stop();
      await alertSweeps.stop();
      await siteEvents.close();
      await Promise.all([outbox.stop(), housekeepingRun]);
      mailer.close();
      await database.close();
    },
  };
}
