import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/integrations";
import { buttonClass, linkClass } from "../components/TableRegion.tsx";
import { FieldError, TextField } from "../components/FormField.tsx";
import { EndpointSection, type EndpointView } from "./WebhookEndpoint.tsx";
import { DeliveryPanel, RemovePanel, RevealPanel, SecretShown, type DeliveryView } from "./WebhookPanels.tsx";
import { requireOperator } from "~/server/console/index.server.ts";
import {
  URL_MAX_LENGTH,
  WEBHOOK_EVENTS,
  type EndpointErrors,
  type WebhookConsole,
} from "~/server/webhooks/index.server.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { isRowId } from "~/lib/row-id.ts";
import { postedForm } from "~/server/http/index.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Integrations" }, { name: "robots", content: "noindex" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context);
  const { webhooks } = context.services;
  const time = (instant: Date | null) => (instant ? formatTime(instant, context.operatorTimeZone) : null);
  const endpoints = await webhooks.list();
  return {
    events: WEBHOOK_EVENTS,
    urlMaxLength: URL_MAX_LENGTH,
    endpoints: endpoints.map((endpoint): EndpointView => ({
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
      secretRolls: endpoint.secretRolls,
      previousSecretUntil: time(endpoint.previousSecretUntil),
      failingSince: time(endpoint.failingSince),
      disabledAt: time(endpoint.disabledAt),
      deliveries: endpoint.deliveries.map((delivery) => ({
        id: delivery.id,
        event: delivery.event,
        queuedAt: time(delivery.createdAt),
        attempts: delivery.attempts,
        statusCode: delivery.statusCode,
        durationMs: delivery.durationMs,
        state: delivery.state,
        nextAttemptAt: time(delivery.nextAttemptAt),
      })),
    })),
    panel: await panelOf(new URL(request.url).searchParams, webhooks, time),
  };
}

/** The second step the address asks for (?reveal=, ?remove=, ?delivery=), when its endpoint or delivery is there. */
async function panelOf(
  query: URLSearchParams,
  webhooks: WebhookConsole,
  time: (instant: Date | null) => string | null,
) {
  const reveal = query.get("reveal");
  if (isRowId(reveal)) {
    const found = await webhooks.removal(reveal);
    return found ? ({ kind: "reveal", endpoint: { id: reveal, url: found.url } } as const) : null;
  }
  const remove = query.get("remove");
  if (isRowId(remove)) {
    const found = await webhooks.removal(remove);
    return found ? ({ kind: "remove", endpoint: { id: remove, ...found } } as const) : null;
  }
  const deliveryId = query.get("delivery");
  if (isRowId(deliveryId)) {
    const found = await webhooks.delivery(deliveryId);
    if (!found) return null;
    const delivery: DeliveryView = {
      id: found.id,
      endpointId: found.endpointId,
      url: found.url,
      event: found.event,
      messageId: found.messageId,
      body: found.body,
      queuedAt: time(found.createdAt)!,
      state: found.state === "pending" ? "Waiting or retrying" : found.state === "delivered" ? "Delivered" : "Failed",
      attempts: found.attempts.map((attempt) => ({
        at: time(attempt.attemptedAt)!,
        statusCode: attempt.statusCode,
        durationMs: attempt.durationMs,
        error: attempt.error,
        responseHead: attempt.responseHead,
      })),
    };
    return { kind: "delivery", delivery } as const;
  }
  return null;
}

const GONE = "That endpoint or delivery no longer exists.";

interface ActionAnswer {
  errors: EndpointErrors;
  /** A new endpoint's secret, shown in the answer to "Add endpoint". */
  secret: string | null;
  error: string | null;
  /** The password field's error on "Reveal secret". */
  passwordError?: string;
  /** The secrets after the right password, or after "Roll secret". */
  shown?: { title: string; secret: string; previous: { secret: string | null; until: string } | null };
  notice?: string;
}

const answer = (fields: Partial<ActionAnswer>, status = 200) =>
  data<ActionAnswer>({ errors: {}, secret: null, error: null, ...fields }, { status });

/**
 * "Add endpoint", and each endpoint's "Send test event", "Resend", "Turn on again", "Reveal secret" (with the
 * password), "Roll secret" and "Remove endpoint" (from its confirmation).
 */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const { webhooks, consoleAuth } = context.services;
  const time = (instant: Date) => formatTime(instant, context.operatorTimeZone);
  const form = await postedForm(request);
  const intent = form.get("intent");
  if (intent === "add") {
    const added = await webhooks.add(form);
    if (added.kind === "invalid") return answer({ errors: added.errors }, 400);
    // The secret is shown in the answer to "Add endpoint"; afterwards only to an operator who types their password.
    return answer({ secret: added.secret });
  }
  const endpointId = form.get("endpoint");
  if (!isRowId(endpointId)) return answer({ error: GONE }, 400);
  if (intent === "reveal") {
    const check = await consoleAuth.confirmPassword(operator, form.get("password"), context.clientIp);
    if (check.outcome === "locked") {
      const minutes = Math.ceil(check.retryAfterSeconds / 60);
      return answer({ passwordError: `Too many wrong passwords: try again in ${minutes} minutes.` }, 429);
    }
    if (check.outcome === "wrong") return answer({ passwordError: "That is not your password." }, 400);
    const found = await webhooks.reveal(endpointId);
    if (!found) return answer({ error: GONE }, 404);
    const until = found.previousSecretUntil;
    return answer({
      shown: {
        title: `The signing secret of ${found.url}:`,
        secret: found.secret,
        previous: until ? { secret: found.previousSecret, until: time(until) } : null,
      },
    });
  }
  if (intent === "roll") {
    const rolls = Number(form.get("rolls"));
    if (!Number.isInteger(rolls)) return answer({ error: "That is not something this page does." }, 400);
    const rolled = await webhooks.roll(endpointId, rolls);
    if (!rolled) return answer({ error: "That secret was rolled already: the page now shows where it stands." }, 409);
    return answer({
      shown: {
        title: `Secret rolled for ${rolled.url}. Copy the new one now into the receiving end:`,
        secret: rolled.secret,
        previous: { secret: null, until: time(rolled.previousSecretUntil) },
      },
    });
  }
  if (intent === "remove") {
    const found = await webhooks.removal(endpointId);
    if (!found || !(await webhooks.remove(endpointId))) return answer({ error: GONE }, 404);
    return answer({ notice: `Removed ${found.url}: nothing more is sent to it.` });
  }
  if (intent === "test") {
    if (!(await webhooks.sendTest(endpointId))) return answer({ error: GONE }, 404);
  } else if (intent === "resend") {
    const deliveryId = form.get("delivery");
    if (!isRowId(deliveryId) || !(await webhooks.resend(endpointId, deliveryId))) return answer({ error: GONE }, 404);
  } else if (intent === "turn-on") {
    await webhooks.turnOn(endpointId);
  } else {
    return answer({ error: "That is not something this page does." }, 400);
  }
  return redirect("/admin/integrations", 303);
}

/** Webhook endpoints with their recent deliveries, and the form to add one. */
export default function Integrations({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoints, events, urlMaxLength, panel } = loaderData;
  const errors: EndpointErrors = actionData?.errors ?? {};
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Integrations</h1>
      <p className="mt-2 max-w-3xl text-slate-800">
        Webhooks send each event to your own system (Zapier, Make, a CRM) as it happens, signed as Standard Webhooks
        says, so the receiving end can check that it came from this site. A failed delivery is retried for about a day;
        an endpoint failing for 5 days is turned off and you are emailed. Tools that read leads and calls themselves use
        a key from the{" "}
        <Link to="/admin/api-keys" className={linkClass}>
          API keys
        </Link>{" "}
        page.
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-3 rounded border border-red-800 bg-red-50 p-3 font-semibold text-red-900">
          {actionData.error}
        </p>
      ) : null}
      {actionData?.notice ? (
        <p role="status" className="mt-3 rounded border border-green-800 bg-green-50 p-3 font-semibold text-slate-900">
          {actionData.notice}
        </p>
      ) : null}
      {actionData?.shown ? <SecretShown {...actionData.shown} /> : null}
      {panel?.kind === "reveal" && !actionData?.shown ? (
        <RevealPanel endpoint={panel.endpoint} error={actionData?.passwordError} />
      ) : null}
      {panel?.kind === "remove" && !actionData?.notice ? <RemovePanel endpoint={panel.endpoint} /> : null}
      {panel?.kind === "delivery" ? <DeliveryPanel delivery={panel.delivery} /> : null}
      {actionData?.secret ? (
        <div role="status" className="mt-3 rounded border border-green-800 bg-green-50 p-3 text-slate-900">
          <p className="font-semibold">Endpoint added. Copy its signing secret now: it is not shown again.</p>
          <p className="mt-2">
            <code className="break-all">{actionData.secret}</code>
          </p>
        </div>
      ) : null}

      <section aria-labelledby="endpoints-heading" className="mt-6">
        <h2 id="endpoints-heading" className="text-xl font-bold text-slate-900">
          Webhook endpoints
        </h2>
        {endpoints.length === 0 ? (
          <p className="mt-2 text-slate-800">No endpoints yet: add the first one below.</p>
        ) : (
          endpoints.map((endpoint, index) => <EndpointSection key={endpoint.id} endpoint={endpoint} index={index} />)
        )}
      </section>

      <section aria-labelledby="add-endpoint-heading" className="mt-8">
        <h2 id="add-endpoint-heading" className="text-xl font-bold text-slate-900">
          Add endpoint
        </h2>
        <Form method="post" className="mt-3 grid max-w-xl gap-4" noValidate>
          <input type="hidden" name="intent" value="add" />
          <TextField
            id="endpoint-url"
            name="url"
            required
            label="URL"
            type="url"
            inputMode="url"
            autoComplete="off"
            maxLength={urlMaxLength}
            hint="An https address on the internet, such as a Zapier or Make webhook URL."
            error={errors.url}
          />
          <fieldset aria-describedby={errors.events ? "endpoint-events-error" : undefined}>
            <legend className="font-semibold text-slate-900">Events</legend>
            <div className="mt-1 grid gap-1 sm:grid-cols-2">
              {events.map((event) => (
                <label
                  key={event}
                  htmlFor={`endpoint-event-${event}`}
                  className="flex items-center gap-2 text-slate-900"
                >
                  <input
                    id={`endpoint-event-${event}`}
                    type="checkbox"
                    name="events"
                    value={event}
                    defaultChecked
                    className="size-5"
                  />
                  {event}
                </label>
              ))}
            </div>
            <FieldError id="endpoint-events-error" error={errors.events} />
          </fieldset>
          <div>
            <button type="submit" className={buttonClass}>
              Add endpoint
            </button>
          </div>
        </Form>
      </section>
    </>
  );
}
