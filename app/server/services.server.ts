import { embeddedDatabaseFolder, type Env } from "~/config/env.server.ts";
import {
  operatorAlertsFromSettings,
  pushAlertsFromSettings,
  startEscalations,
  twilioTextSender,
  webPushFromSettings,
  type PushAlerts,
} from "./alerts/index.server.ts";
import { createSiteEventCounter, type SiteEventCounter } from "./analytics/index.server.ts";
import { createReadApi, type ReadApi } from "./api/index.server.ts";
import { startBackups, type Backups } from "./backups/index.server.ts";
import {
  answeredCallCounts,
  answeredCalls,
  callsFromPhone,
  twilioChannel,
  TWILIO_CHANNEL,
} from "./calls/index.server.ts";
import { startConsole, type ConsoleAuth, type ConsoleForms } from "./console/index.server.ts";
import { startDigest, type ConversionSources } from "./conversions/index.server.ts";
import { openDatabase, type Database, type RunStatement, type StreamRows } from "./db/index.server.ts";
import type { OutboundRule } from "./egress/index.server.ts";
import { startHousekeeping } from "./housekeeping.server.ts";
import {
  callTrackingFromSettings,
  TEXT_WEBHOOK_PATHS,
  textMessagingFromSettings,
  type CallTracking,
  type TextMessaging,
} from "./http/index.server.ts";
import { leadIntakeFromSettings, type LeadIntake } from "./leads/index.server.ts";
import { log, setLogLevel } from "./log.server.ts";
import {
  createIntakePressure,
  emailBacklog,
  mailerFromSettings,
  startOutbox,
  type OutboxWorker,
} from "./outbox/index.server.ts";
import { startReferrals, type Referrals } from "./partners/index.server.ts";
import { isOptedOut, TEXT_QUEUE, textQueue, textsFromSettings, threadPath } from "./texts/index.server.ts";
import { twilioFromSettings } from "./twilio/index.server.ts";
import {
  webhookConsoleFromSettings,
  webhookDeliveriesFromSettings,
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

/** A push alert that could not be queued is logged; what it tells of is stored either way. */
const pushFailed = (error: unknown) => log.error({ err: error }, "queueing the push alert failed");

/**
 * The composition root: each feature started from the settings, in the order they need one another, and stopped in
 * the order that lets work in flight finish (requests' effects first, then the outbox, then the database).
 */
export async function startServices(env: Env): Promise<AppServices> {
  setLogLevel(env.LOG_LEVEL);
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    pgliteDataDir: env.PGLITE_DATA_DIR,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  const mailer = mailerFromSettings(env);
  if (env.siteUrlNotice) log[env.siteUrlNotice.level](env.siteUrlNotice.message);
  log.info(`Leads are stored in ${database.description}; email goes to ${mailer.description}.`);

  const twilio = twilioFromSettings(env);
  // No text of any kind goes to a number that replied STOP.
  const textSender =
    twilio && env.TWILIO_FROM_NUMBER
      ? twilioTextSender(twilio, (number) => isOptedOut(database.run, number))
      : undefined;
  const webPush = await webPushFromSettings(env, database.db);
  const intakePressure = createIntakePressure();
  const outbox = startOutbox(env, database.run, mailer, {
    beforeClaim: intakePressure.quiet,
    channels: {
      push: webPush.channel,
      ...(textSender ? { sms: textSender } : {}),
      ...(twilio ? { [TWILIO_CHANNEL]: twilioChannel(twilio) } : {}),
    },
    queues: [
      webhookDeliveriesFromSettings(env, database.run),
      ...(twilio && textSender
        ? [textQueue({ run: database.run, twilio, statusCallbackUrl: `${env.SITE_URL}${TEXT_WEBHOOK_PATHS.status}` })]
        : []),
    ],
  });
  const nudge = (queue?: string) => () => outbox.nudge(queue);

  const webhooks = webhookConsoleFromSettings(env, database.db, nudge(WEBHOOK_QUEUE));
  const pushAlerts = pushAlertsFromSettings(env, database.run, nudge("messages"));
  const { consoleAuth, consoleForms, sessionSecret } = await startConsole(env, database.db);
  const texting = textSender !== undefined;
  const partners = startReferrals(env, database, {
    sessionSecret,
    texts: texting,
    alert: operatorAlertsFromSettings(env, texting),
    onQueued: nudge(),
  });
  const escalations = startEscalations(env, database, {
    texts: texting,
    autoReferrals: partners.autoReferrals,
    onQueued: nudge(),
  });
  const housekeeping = startHousekeeping(env, database, { consoleAuth, consoleForms });
  const leads = leadIntakeFromSettings(env, database.run, (lead) => {
    intakePressure.leadAccepted();
    outbox.nudge("emails");
    if (lead.kind === "contact" && lead.webhooks) outbox.nudge(WEBHOOK_QUEUE);
    // The email is already queued with the lead; the push to operators' devices follows it.
    (lead.kind === "contact" ? pushAlerts.newLead(lead) : pushAlerts.optOut()).catch(pushFailed);
    // Referred by the rules after it is stored, never in its request; the sweep catches one left by a stop.
    if (lead.kind === "contact" && lead.zip) {
      partners.autoReferrals.referNew(lead.id).catch((error) => log.error({ err: error }, "automatic referral failed"));
    }
  });
  const siteEvents = createSiteEventCounter({
    run: database.run,
    flushMs: env.ANALYTICS_FLUSH_MS,
    timeZone: env.OPERATOR_TIME_ZONE,
  });
  const texts = textMessagingFromSettings(
    env,
    textsFromSettings(env, database, {
      canSend: texting,
      numberCalledBy: async (customer) =>
        (await callsFromPhone(database.db, customer, env.OPERATOR_TIME_ZONE))[0]?.called ?? null,
      onReceived: (customer) => void pushAlerts.textReceived({ url: threadPath(customer) }).catch(pushFailed),
      onQueued: () => {
        outbox.nudge(TEXT_QUEUE);
        outbox.nudge(WEBHOOK_QUEUE);
      },
    }),
  );
  // A caller hears ringing while the call's step waits for the database.
  const calls = callTrackingFromSettings(
    env,
    { db: database.db, run: database.runFirst },
    {
      twilio,
      sessionSecret,
      texts: texting,
      onNoticeQueued: nudge(),
      onEmailQueued: () => {
        outbox.nudge();
        // A missed call or a voicemail reaches the operators' phones too.
        pushAlerts.missedCall({ url: "/admin/calls" }).catch(pushFailed);
      },
      onWebhooksQueued: nudge(WEBHOOK_QUEUE),
      // The text-back is queued before Twilio hears the call's outcome was taken.
      onMissedCall: async (call) => texts?.textBack(call),
    },
  );
  const weeklyDigest = startDigest(env, database, nudge());
  const backups = startBackups(env, database);

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
    referrals: partners.referrals,
    readApi: createReadApi({
      db: database.db,
      run: database.run,
      perMinute: env.API_RATE_LIMIT_PER_MINUTE,
      // A statement is cancelled after its timeout, and commits within a second of ending.
      settleMs: env.DATABASE_STATEMENT_TIMEOUT_MS + 1_000,
      siteUrl: env.SITE_URL,
    }),
    pushAlerts,
    vapidPublicKey: webPush.publicKey,
    pushEndpointRule: webPush.endpointRule,
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
    backups: backups.backups,
    async close() {
      // Housekeeping starts no task from now on; the one running finishes beside the rest.
      const housekeepingStopped = housekeeping.stop();
      for (const running of [backups, partners, weeklyDigest, escalations]) await running?.stop();
      await siteEvents.close();
      await Promise.all([outbox.stop(), housekeepingStopped]);
      mailer.close();
      await database.close();
    },
  };
}
