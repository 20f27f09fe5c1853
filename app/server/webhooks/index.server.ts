/** Webhooks: operators' endpoints, and signed deliveries of events queued with what they tell of. */
export { isoUtc, queueWebhooksCte, WEBHOOK_EVENTS, type WebhookEvent } from "./events.server.ts";
export { purgeOldDeliveries, webhookQueue, WEBHOOK_QUEUE } from "./delivery.server.ts";
export { createWebhookConsole, URL_MAX_LENGTH, type EndpointErrors, type WebhookConsole } from "./endpoints.server.ts";
export { webhookConsoleFromSettings, webhookDeliveriesFromSettings } from "./start.server.ts";
