import { eq } from "drizzle-orm";
import webpush from "web-push";
import { z } from "zod";
import { sqlNames, type Database, type RunStatement } from "../db/index.server.ts";
import { RefusedAddress, sendOutbound, type OutboundResponse, type OutboundRule } from "../egress/index.server.ts";
import { DeliveryRefused, queue, serviceForMessages, type ChannelSender } from "../outbox/index.server.ts";
import { isP256PublicKey } from "./push-subscriptions.server.ts";
import { pushSubscriptions } from "./schema.server.ts";
import type { VapidKeys } from "./vapid-keys.server.ts";

/**
 * Web Push to every device operators turned alerts on for: one outbox message per device, so each is
 * delivered, retried and given up on its own. The notification says what arrived and the service asked
 * for, never the visitor's contact details; tapping it opens `url` in the console.
 */

export interface PushNotification {
  title: string;
  body: string;
  /** A console path, such as /admin/leads/<id>. */
  url: string;
}

const pushPayload = z.object({
  subscriptionId: z.uuid(),
  notification: z.object({
    title: z.string().max(120),
    body: z.string().max(240),
    url: z.string().startsWith("/admin"),
  }),
});

/** How long a push service keeps an alert for a device that is offline: an alert hours late is no alert. */
const TIME_TO_LIVE_SECONDS = 4 * 3_600;
/** A push service whose whole answer has not come in this long is tried again later. */
const SEND_TIMEOUT_MS = 15_000;

const devicesTable = sqlNames(pushSubscriptions);
/**
 * Every subscribed device, read for every alert (each lead as it arrives among them): a prepared statement, as the
 * lead's own are (planned again each time, it took the embedded database 0.9 ms instead of 0.25).
 */
const DEVICES = `SELECT ${devicesTable.id} AS id FROM ${devicesTable.table}`;

/** Queues the notification for every subscribed device of every operator. */
async function queuePush(
  run: RunStatement,
  messageIdFrom: string,
  purpose: string,
  notification: PushNotification,
): Promise<number> {
  const devices = await run<{ id: string }>("push_devices", DEVICES, []);
  if (devices.length === 0) return 0;
  await queue(run, messageIdFrom, {
    messages: devices.map((device) => ({
      channel: "push",
      purpose,
      payload: { subscriptionId: device.id, notification } satisfies z.infer<typeof pushPayload>,
    })),
  });
  return devices.length;
}

/**
 * The "push" channel: the notification encrypted for the device (aes128gcm) and signed with the VAPID key,
 * POSTed to its push service. A 404 or 410 means the subscription is gone: it is removed, and the message
 * is done; so it is when the device's key cannot be encrypted for. A device removed since the message was queued
 * gets nothing.
 */
export function webPushSender(db: Database, vapid: VapidKeys & { subject: string }, rule: OutboundRule): ChannelSender {
  return async (payload, signal) => {
    const parsed = pushPayload.safeParse(payload);
    if (!parsed.success) throw new DeliveryRefused("the push message is malformed");
    const { subscriptionId, notification } = parsed.data;
    const [device] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId));
    if (!device) return;
    if (!isP256PublicKey(device.p256dh)) {
      // A key no message can be encrypted for (stored before keys were checked when a device is added) never will
      // be: the device goes, as one its push service says is gone does, and the message is done.
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId));
      return;
    }
    const request = webpush.generateRequestDetails(
      { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
      JSON.stringify(notification),
      {
        vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        TTL: TIME_TO_LIVE_SECONDS,
        urgency: "high",
        contentEncoding: "aes128gcm",
      },
    );
    let response: OutboundResponse;
    try {
      // Only to a public address, checked again as this connection resolves the name; redirects not followed.
      response = await sendOutbound(new URL(request.endpoint), {
        method: "POST",
        headers: Object.fromEntries(
          Object.entries(request.headers)
            .filter(([name]) => name.toLowerCase() !== "content-length")
            .map(([name, value]) => [name, String(value)]),
        ),
        body: request.body ? new Uint8Array(request.body) : new Uint8Array(),
        signal,
        timeoutMs: SEND_TIMEOUT_MS,
        rule,
      });
    } catch (error) {
      if (error instanceof RefusedAddress) throw new DeliveryRefused("the push service is not on a public address");
      throw error;
    }
    if (response.status >= 200 && response.status < 300) return;
    if (response.status === 404 || response.status === 410) {
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId));
      return;
    }
    const reason = `the push service answered ${response.status}`;
    if (response.status >= 400 && response.status < 500 && response.status !== 429) throw new DeliveryRefused(reason);
    throw new Error(reason);
  };
}

/** The alerts other modules raise: a new lead, an opt-out, a missed call (from call tracking), a customer's text. */
export function createPushAlerts(settings: {
  run: RunStatement;
  messageIdFrom: string;
  companyName: string;
  onQueued(): void;
}) {
  const send = async (purpose: string, notification: PushNotification) => {
    if ((await queuePush(settings.run, settings.messageIdFrom, purpose, notification)) > 0) {
      settings.onQueued();
    }
  };
  return {
    newLead: (lead: { id: string; service: string }) =>
      send("new_lead_push", {
        title: "New lead",
        body: `Service asked for: ${serviceForMessages(lead.service)}`,
        url: `/admin/leads/${lead.id}`,
      }),
    optOut: () =>
      send("opt_out_push", {
        title: "New opt-out request",
        body: "A do-not-sell request arrived.",
        url: "/admin/opt-outs",
      }),
    /** For call tracking: a call nobody answered, with the service of the page it came from when known. */
    missedCall: (call: { service?: string; url?: string }) =>
      send("missed_call_push", {
        title: "Missed call",
        body: call.service
          ? `Service asked for: ${serviceForMessages(call.service)}`
          : `A call to ${settings.companyName} was missed.`,
        url: call.url ?? "/admin",
      }),
    /** For texts with customers: a customer's text arrived (what it says stays in the console). */
    textReceived: (text: { url: string }) =>
      send("text_received_push", {
        title: "New text",
        body: "A customer sent a text message.",
        url: text.url,
      }),
  };
}

export type PushAlerts = ReturnType<typeof createPushAlerts>;
