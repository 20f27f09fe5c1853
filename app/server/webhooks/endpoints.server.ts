import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { executeRows, sqlNames, type Database } from "../db/index.server.ts";
import { checkOutboundUrl, type OutboundRule } from "../egress/index.server.ts";
import { ISO_NOW, NEW_MESSAGE_ID, TEST_EVENT, WEBHOOK_EVENTS, type WebhookEvent } from "./events.server.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "./schema.server.ts";

/**
 * The console's side of webhooks: endpoints added (one a URL), listed with their recent deliveries, resent to,
 * tested; their secrets revealed and rolled; each delivery's attempts read.
 */

/** How many of an endpoint's deliveries the console lists, newest first. */
const RECENT_DELIVERIES = 10;
/** Longer URLs are refused: no receiver needs one. */
export const URL_MAX_LENGTH = 2_000;

const endpointSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, "Enter the URL events are sent to.")
    .max(URL_MAX_LENGTH, `A URL can be at most ${URL_MAX_LENGTH.toLocaleString("en-US")} characters.`)
    .refine((value) => URL.canParse(value), "Enter a full URL, such as https://hooks.example.com/plumbline."),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, "Choose events from the list."))
    .min(1, "Choose at least one event.")
    .transform((events) => [...new Set(events)]),
});

export type EndpointErrors = Partial<Record<"url" | "events", string>>;

/** "Add endpoint"'s fields, checked: the URL's form here; where it leads is the egress rule's to check. */
function validateEndpoint(
  form: FormData,
): { success: true; endpoint: { url: string; events: WebhookEvent[] } } | { success: false; errors: EndpointErrors } {
  const url = form.get("url");
  const result = endpointSchema.safeParse({
    url: typeof url === "string" ? url : "",
    events: form.getAll("events").filter((value) => typeof value === "string"),
  });
  if (result.success) return { success: true, endpoint: result.data };
  const errors: EndpointErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0];
    if ((key === "url" || key === "events") && !errors[key]) errors[key] = issue.message;
  }
  return { success: false, errors };
}

/** A new endpoint's signing secret, in Standard Webhooks' form: `whsec_` and 32 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** How long the secret before a roll keeps signing beside the new one. */
const PREVIOUS_SECRET_HOURS = 24;

/**
 * Adds the endpoint unless one has its URL already (every event would go to it twice), in one statement; its secret
 * is returned for the operator to copy into the receiving end. Null when the URL is taken.
 */
async function addEndpoint(db: Database, endpoint: { url: string; events: WebhookEvent[] }) {
  const secret = newSecret();
  const id = randomUUID();
  const e = webhookEndpoints;
  const url = new URL(endpoint.url).href;
  const added = await executeRows<{ id: string }>(
    db,
    sql`INSERT INTO ${e} (${sql.identifier(e.id.name)}, ${sql.identifier(e.url.name)}, ${sql.identifier(e.events.name)},
      ${sql.identifier(e.secret.name)})
    SELECT ${id}::uuid, ${url}, ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(endpoint.events)}::jsonb)), ${secret}
    WHERE NOT EXISTS (SELECT 1 FROM ${e} WHERE ${e.url} IN (${url}, ${endpoint.url}))
    RETURNING ${e.id} AS id`,
  );
  return added.length > 0 ? { id, url, secret } : null;
}

/** The endpoint's secret, and the one before it while that still signs; null when the endpoint is gone. */
async function revealSecret(db: Database, id: string) {
  const [found] = await db
    .select({
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      previousSecret: sql<string | null>`CASE WHEN ${webhookEndpoints.previousSecretUntil} > now()
        THEN ${webhookEndpoints.previousSecret} END`,
      previousSecretUntil: sql<Date | null>`CASE WHEN ${webhookEndpoints.previousSecretUntil} > now()
        THEN ${webhookEndpoints.previousSecretUntil} END`.mapWith(webhookEndpoints.previousSecretUntil),
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id));
  return found ?? null;
}

/**
 * "Roll secret": a new secret signs from now on, and the one it replaces signs beside it for 24 hours, so the
 * receiving end can take the new one without missing a delivery. Null when the endpoint is gone.
 */
async function rollSecret(db: Database, id: string) {
  const secret = newSecret();
  const [rolled] = await db
    .update(webhookEndpoints)
    .set({
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretUntil: sql`now() + ${PREVIOUS_SECRET_HOURS} * interval '1 hour'`,
      secret,
    })
    .where(eq(webhookEndpoints.id, id))
    .returning({ url: webhookEndpoints.url, previousSecretUntil: webhookEndpoints.previousSecretUntil });
  return rolled ? { secret, url: rolled.url, previousSecretUntil: rolled.previousSecretUntil! } : null;
}

/** The endpoint's URL, which names it on the page; null when it is gone. */
async function endpointUrl(db: Database, id: string): Promise<string | null> {
  const [found] = await db
    .select({ url: webhookEndpoints.url })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id));
  return found?.url ?? null;
}

/** One delivery as its page shows it: the request's body as sent, and every attempt, newest first. */
async function deliveryDetail(db: Database, deliveryId: string) {
  const [delivery] = await db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      url: webhookEndpoints.url,
      event: webhookDeliveries.purpose,
      messageId: webhookDeliveries.messageId,
      body: sql<string>`${webhookDeliveries.payload}::text`,
      createdAt: webhookDeliveries.createdAt,
      sentAt: webhookDeliveries.sentAt,
      failedAt: webhookDeliveries.failedAt,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!delivery) return null;
  const attempts = await db
    .select({
      attemptedAt: webhookAttempts.attemptedAt,
      statusCode: webhookAttempts.statusCode,
      durationMs: webhookAttempts.durationMs,
      error: webhookAttempts.error,
      responseHead: webhookAttempts.responseHead,
    })
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, deliveryId))
    .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.id));
  const state: DeliveryState = delivery.sentAt ? "delivered" : delivery.failedAt ? "failed" : "pending";
  return { ...delivery, state, attempts };
}

/** What removing the endpoint would take with it: how many deliveries wait to be sent, and how many are kept. */
async function removalSummary(db: Database, id: string) {
  const e = sqlNames(webhookEndpoints);
  const d = sqlNames(webhookDeliveries);
  const [found] = await executeRows<{ url: string; waiting: number; kept: number }>(
    db,
    sql`SELECT ${sql.raw(`endpoint.${e.url}`)} AS url,
      count(delivery.*) FILTER (WHERE ${sql.raw(`delivery.${d.sentAt} IS NULL AND delivery.${d.failedAt} IS NULL`)})::int AS waiting,
      count(delivery.*)::int AS kept
    FROM ${sql.raw(`${e.table} AS endpoint LEFT JOIN ${d.table} AS delivery ON delivery.${d.endpointId} = endpoint.${e.id}`)}
    WHERE ${sql.raw(`endpoint.${e.id}`)} = ${id}::uuid
    GROUP BY ${sql.raw(`endpoint.${e.url}`)}`,
  );
  return found ?? null;
}

/** Removes the endpoint with its deliveries and their attempts. False when it was gone already. */
async function removeEndpoint(db: Database, id: string): Promise<boolean> {
  const removed = await db
    .delete(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
    .returning({ id: webhookEndpoints.id });
  return removed.length > 0;
}

/** "Turn on again" for an endpoint turned off after failing: its deliveries from now on are sent. */
async function turnOnEndpoint(db: Database, id: string): Promise<void> {
  await db.update(webhookEndpoints).set({ disabledAt: null, failingSince: null }).where(eq(webhookEndpoints.id, id));
}

type DeliveryState = "pending" | "delivered" | "failed";

/** Every endpoint, oldest first, with its most recent deliveries (never their payloads). */
async function listEndpoints(db: Database) {
  const endpoints = await db
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      events: webhookEndpoints.events,
      createdAt: webhookEndpoints.createdAt,
      previousSecretUntil: sql<Date | null>`CASE WHEN ${webhookEndpoints.previousSecretUntil} > now()
        THEN ${webhookEndpoints.previousSecretUntil} END`.mapWith(webhookEndpoints.previousSecretUntil),
      failingSince: webhookEndpoints.failingSince,
      disabledAt: webhookEndpoints.disabledAt,
    })
    .from(webhookEndpoints)
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  if (endpoints.length === 0) return [];
  const ranked = db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      event: webhookDeliveries.purpose,
      createdAt: webhookDeliveries.createdAt,
      attempts: webhookDeliveries.attempts,
      statusCode: webhookDeliveries.statusCode,
      durationMs: webhookDeliveries.durationMs,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      sentAt: webhookDeliveries.sentAt,
      failedAt: webhookDeliveries.failedAt,
      rank: sql<number>`row_number() OVER (PARTITION BY ${webhookDeliveries.endpointId}
        ORDER BY ${webhookDeliveries.createdAt} DESC, ${webhookDeliveries.id} DESC)`.as("rank"),
    })
    .from(webhookDeliveries)
    .where(
      inArray(
        webhookDeliveries.endpointId,
        endpoints.map((endpoint) => endpoint.id),
      ),
    )
    .as("ranked");
  const deliveries = await db
    .select()
    .from(ranked)
    .where(sql`${ranked.rank} <= ${RECENT_DELIVERIES}`)
    .orderBy(desc(ranked.createdAt), desc(ranked.id));
  return endpoints.map((endpoint) => ({
    ...endpoint,
    deliveries: deliveries
      .filter((delivery) => delivery.endpointId === endpoint.id)
      .map((delivery) => ({
        id: delivery.id,
        event: delivery.event,
        createdAt: delivery.createdAt,
        attempts: delivery.attempts,
        statusCode: delivery.statusCode,
        durationMs: delivery.durationMs,
        nextAttemptAt: delivery.nextAttemptAt,
        state: (delivery.sentAt ? "delivered" : delivery.failedAt ? "failed" : "pending") as DeliveryState,
      })),
  }));
}

/**
 * "Resend": the delivery's message again, as a new delivery with the same payload and `webhook-id` (a receiver
 * that already has it can tell). False when the endpoint has no such delivery.
 */
async function resendDelivery(db: Database, endpointId: string, deliveryId: string): Promise<boolean> {
  const d = webhookDeliveries;
  const rows = await executeRows<{ id: string }>(
    db,
    sql`INSERT INTO ${d} (${sql.identifier(d.id.name)}, ${sql.identifier(d.endpointId.name)}, ${sql.identifier(d.purpose.name)},
      ${sql.identifier(d.messageId.name)}, ${sql.identifier(d.payload.name)})
    SELECT ${randomUUID()}::uuid, ${d.endpointId}, ${d.purpose}, ${d.messageId}, ${d.payload} FROM ${d}
    WHERE ${and(eq(d.id, deliveryId), eq(d.endpointId, endpointId))}
    RETURNING ${d.id} AS id`,
  );
  return rows.length > 0;
}

/** "Send test event": a `webhook.test` event to the endpoint, whatever events it wants. False when it is gone. */
async function sendTestEvent(db: Database, endpointId: string): Promise<boolean> {
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  const rows = await executeRows<{ id: string }>(
    db,
    sql`INSERT INTO ${d} (${sql.identifier(d.id.name)}, ${sql.identifier(d.endpointId.name)}, ${sql.identifier(d.purpose.name)},
      ${sql.identifier(d.messageId.name)}, ${sql.identifier(d.payload.name)})
    SELECT ${randomUUID()}::uuid, ${e.id}, ${TEST_EVENT}::text, ${sql.raw(NEW_MESSAGE_ID)},
      jsonb_build_object('type', ${TEST_EVENT}::text, 'timestamp', ${sql.raw(ISO_NOW)},
        'data', jsonb_build_object('endpoint_id', ${e.id}, 'message', 'A test event: the endpoint receives and verifies deliveries.'))
    FROM ${e} WHERE ${eq(e.id, endpointId)}
    RETURNING ${d.id} AS id`,
  );
  return rows.length > 0;
}

export interface WebhookConsoleSettings {
  db: Database;
  /** Where endpoints may be: https URLs on public addresses (after DNS resolution), unless WEBHOOK_ALLOW_PRIVATE. */
  rule: OutboundRule;
  /** Called once a delivery is queued, so the outbox sends it now. */
  onQueued(): void;
}

export type AddEndpointOutcome =
  { kind: "added"; id: string; url: string; secret: string } | { kind: "invalid"; errors: EndpointErrors };

/** Why a second endpoint for one URL is refused. */
const URL_TAKEN =
  "An endpoint with this URL is already listed: a second would get every event twice. Remove that one first to change its events.";

/** The Integrations page's actions. */
export function createWebhookConsole(settings: WebhookConsoleSettings) {
  const { db } = settings;
  const queued = (done: boolean) => {
    if (done) settings.onQueued();
    return done;
  };
  return {
    list: () => listEndpoints(db),
    /** "Add endpoint": the URL's form, then where it leads (after DNS resolution), then stored with a new secret. */
    async add(form: FormData): Promise<AddEndpointOutcome> {
      const result = validateEndpoint(form);
      if (!result.success) return { kind: "invalid", errors: result.errors };
      const checked = await checkOutboundUrl(result.endpoint.url, settings.rule);
      if (!checked.ok) return { kind: "invalid", errors: { url: checked.reason } };
      const added = await addEndpoint(db, result.endpoint);
      return added ? { kind: "added", ...added } : { kind: "invalid", errors: { url: URL_TAKEN } };
    },
    /** The secrets, for "Reveal secret": the page asks for the operator's password first. */
    reveal: (endpointId: string) => revealSecret(db, endpointId),
    roll: (endpointId: string) => rollSecret(db, endpointId),
    urlOf: (endpointId: string) => endpointUrl(db, endpointId),
    delivery: (deliveryId: string) => deliveryDetail(db, deliveryId),
    removal: (endpointId: string) => removalSummary(db, endpointId),
    resend: async (endpointId: string, deliveryId: string) => queued(await resendDelivery(db, endpointId, deliveryId)),
    sendTest: async (endpointId: string) => queued(await sendTestEvent(db, endpointId)),
    turnOn: (endpointId: string) => turnOnEndpoint(db, endpointId),
    remove: (endpointId: string) => removeEndpoint(db, endpointId),
  };
}

export type WebhookConsole = ReturnType<typeof createWebhookConsole>;
