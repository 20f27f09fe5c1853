import type { Route } from "./+types/api.send-contact-email";

/**
 * The spec's endpoint (§7): POST JSON, a contact request or an opt-out (`type: "opt-out"`).
 * Answers 200 { ok, id } only once the request and its emails are stored.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const outcome = await context.services.leads.handle(request, { clientIp: context.clientIp, channel: "api" });
  return Response.json(outcome.body, {
    status: outcome.status,
    headers: { "Cache-Control": "no-store", ...(outcome.status === 200 ? {} : outcome.headers) },
  });
}

export function loader() {
  return Response.json(
    { error: "Send a POST request with a JSON body.", fieldErrors: {} },
    { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store" } },
  );
}
