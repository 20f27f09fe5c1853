import type { Env } from "~/config/env.server.ts";
import type { Database, RunStatement } from "../db/index.server.ts";
import type { OutboundRule } from "../egress/index.server.ts";
import { messageIdDomain } from "../outbox/index.server.ts";
import { webhookQueue } from "./delivery.server.ts";
import { createWebhookConsole } from "./endpoints.server.ts";

/** Where an endpoint may be: https on a public address, unless WEBHOOK_ALLOW_PRIVATE. */
const endpointRule = (env: Env): OutboundRule => ({ allowPrivate: env.WEBHOOK_ALLOW_PRIVATE });

/** The outbox's queue of webhook deliveries, signed and sent on its lease loop. */
export function webhookDeliveriesFromSettings(env: Env, run: RunStatement) {
  return webhookQueue({
    run,
    rule: endpointRule(env),
    leadsEmailTo: env.LEADS_EMAIL_TO,
    siteUrl: env.SITE_URL,
    companyName: env.COMPANY_NAME,
    messageIdDomain: messageIdDomain(env.MAIL_FROM),
  });
}

/** Webhook endpoints and their deliveries, as the Integrations page adds, tests, resends and removes them. */
export function webhookConsoleFromSettings(env: Env, db: Database, onQueued: () => void) {
  return createWebhookConsole({ db, rule: endpointRule(env), onQueued });
}
