import { data } from "react-router";
import type { Route } from "./+types/alerts-devices";
import { done, requireOperator } from "~/server/console/index.server.ts";
import { parsePushSubscription, removePushSubscription, savePushSubscription } from "~/server/alerts/index.server.ts";
import { postedForm } from "~/server/http/index.server.ts";

/** A browser's push subscription is a few hundred bytes; more is not one. */
const MAX_BODY_BYTES = 4_096;

/**
 * The alerts section's action: a device turning alerts on (JSON from the button's script: its
 * PushSubscription and a name; 204, or 400 when it is not a subscription) and "Remove" (a console form, done once,
 * then back to the page it was on).
 */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const { db } = context.services;
  if (request.headers.get("content-type")?.startsWith("application/json")) {
    const text = await request.text();
    if (text.length > MAX_BODY_BYTES) throw data("A push subscription is smaller than that.", { status: 413 });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw data("Send the push subscription as JSON.", { status: 400 });
    }
    const subscription = parsePushSubscription(body);
    if (!subscription) throw data("That is not a push subscription.", { status: 400 });
    const saved = await savePushSubscription(db, operator.id, subscription, context.services.pushEndpointRule);
    if (!saved.saved) throw data(saved.reason, { status: 400 });
    return new Response(null, { status: 204 });
  }
  const form = await postedForm(request);
  return context.services.consoleForms.once(request, operator, form, async () => {
    const id = form.get("id");
    const returnTo = form.get("returnTo");
    const back = typeof returnTo === "string" && /^\/admin(\/[a-z-]*)?$/.test(returnTo) ? returnTo : "/admin/account";
    const removed = typeof id === "string" ? await removePushSubscription(db, operator.id, id) : null;
    if (!removed) throw data("That device has no alerts any more.", { status: 404 });
    return done(`Alerts removed from ${removed}.`, back);
  });
}
