import { Link } from "react-router";
import type { Route } from "./+types/integrations";
import { buttonClass, linkClass } from "../components/TableRegion.tsx";
import { FieldError, TextField } from "../components/FormField.tsx";
import { EndpointSection, type EndpointView } from "./WebhookEndpoint.tsx";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { DeliveryPanel, RevealPanel, SecretShown, type DeliveryView, type Shown } from "./WebhookPanels.tsx";
import { confirmFirst, confirmed, done, invalid, requireOperator, revealed } from "~/server/console/index.server.ts";
import {
  URL_MAX_LENGTH,
  WEBHOOK_EVENTS,
  type EndpointErrors,
  type WebhookConsole,
} from "~/server/webhooks/index.server.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { isRowId } from "~/lib/row-id.ts";
import { postedForm } from "~/server/http/index.server.ts";
import { ConsoleSection } from "../components/ConsoleSection.tsx";

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

/** The second step the address asks for (?reveal=, ?delivery=), when its endpoint or delivery is there. */
async function panelOf(
  query: URLSearchParams,
  webhooks: WebhookConsole,
  time: (instant: Date | null) => string | null,
) {
  const reveal = query.get("reveal");
  if (isRowId(reveal)) {
    const url = await webhooks.urlOf(reveal);
    return url ? ({ kind: "reveal", endpoint: { id: reveal, url } } as const) : null;
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

const PAGE = "/admin/integrations";
const GONE = "That endpoint or delivery no longer exists.";

/** What an answer that is not a redirect holds: errors, or a secret shown this once. */
interface Answer {
  errors?: EndpointErrors;
  error?: string;
  /** The password field's error on "Reveal secret". */
  passwordError?: string;
  /** A new endpoint's secret, shown in the answer to "Add endpoint". */
  secret?: string;
  /** The secrets after the right password, or after "Roll secret". */
  shown?: Shown;
}

/**
 * "Add endpoint", and each endpoint's "Send test event", "Resend", "Turn on again", "Reveal secret" (with the
 * password), "Roll secret" and "Remove endpoint" (both asked first): each done once, however often it is sent.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const { webhooks, consoleAuth, consoleForms } = context.services;
  const time = (instant: Date) => formatTime(instant, context.operatorTimeZone);
  const form = await postedForm(request);
  return consoleForms.once(request, operator, form, async () => {
    const intent = form.get("intent");
    if (intent === "add") {
      const added = await webhooks.add(form);
      if (added.kind === "invalid") return invalid<Answer>({ errors: added.errors });
      // The secret is shown in this answer; afterwards only to an operator who types their password.
      return revealed<Answer>(`Endpoint ${added.url} added.`, PAGE, { secret: added.secret });
    }
    const endpointId = form.get("endpoint");
    const url = isRowId(endpointId) ? await webhooks.urlOf(endpointId) : null;
    if (!isRowId(endpointId) || !url) return invalid<Answer>({ error: GONE }, 404);
    switch (intent) {
      case "reveal": {
        const check = await consoleAuth.confirmPassword(operator, form.get("password"), context.clientIp);
        if (check.outcome === "locked") {
          const minutes = Math.ceil(check.retryAfterSeconds / 60);
          return invalid<Answer>({ passwordError: `Too many wrong passwords: try again in ${minutes} minutes.` }, 429);
        }
        if (check.outcome === "wrong") return invalid<Answer>({ passwordError: "That is not your password." });
        const found = await webhooks.reveal(endpointId);
        if (!found) return invalid<Answer>({ error: GONE }, 404);
        const until = found.previousSecretUntil;
        return revealed<Answer>(`The signing secret of ${url} shown.`, PAGE, {
          shown: {
            title: `The signing secret of ${url}:`,
            secret: found.secret,
            previous: until ? { secret: found.previousSecret, until: time(until) } : null,
          },
        });
      }
      case "roll": {
        if (!confirmed(form)) {
          return confirmFirst(
            `Roll the signing secret of ${url}? A new secret signs every delivery from now on; the current one signs beside it for 24 hours only, so the receiving end needs the new one by then. This cannot be undone.`,
            "Yes, roll secret",
          );
        }
        const rolled = await webhooks.roll(endpointId);
        if (!rolled) return invalid<Answer>({ error: GONE }, 404);
        return revealed<Answer>(`Secret rolled for ${url}.`, PAGE, {
          shown: {
            title: `Secret rolled for ${url}. Copy the new one now into the receiving end:`,
            secret: rolled.secret,
            previous: { secret: null, until: time(rolled.previousSecretUntil) },
          },
        });
      }
      case "remove": {
        const removal = await webhooks.removal(endpointId);
        if (!removal) return invalid<Answer>({ error: GONE }, 404);
        if (!confirmed(form)) return confirmFirst(removalQuestion(removal), "Yes, remove endpoint");
        if (!(await webhooks.remove(endpointId))) return invalid<Answer>({ error: GONE }, 404);
        return done(`Removed ${url}: nothing more is sent to it.`, PAGE);
      }
      case "test":
        if (!(await webhooks.sendTest(endpointId))) return invalid<Answer>({ error: GONE }, 404);
        return done(`Test event queued for ${url}.`, PAGE);
      case "resend": {
        const deliveryId = form.get("delivery");
        if (!isRowId(deliveryId) || !(await webhooks.resend(endpointId, deliveryId))) {
          return invalid<Answer>({ error: GONE }, 404);
        }
        return done(`Delivery queued again for ${url}.`, PAGE);
      }
      case "turn-on":
        await webhooks.turnOn(endpointId);
        return done(`${url} turned on again: its deliveries are sent from now on.`, PAGE);
      default:
        return invalid<Answer>({ error: "That is not something this page does." });
    }
  });
}

/** Exactly what "Remove endpoint" takes away. */
function removalQuestion(removal: { url: string; waiting: number; kept: number }): string {
  const waiting =
    removal.waiting === 1
      ? "the 1 delivery waiting to be sent or retried is not sent"
      : `the ${removal.waiting} deliveries waiting to be sent or retried are not sent`;
  const kept = `${removal.kept} ${removal.kept === 1 ? "delivery" : "deliveries"}`;
  return `Remove ${removal.url}? No event is sent to it from now on (the receiving end is not told), ${waiting}, and its delivery history (${kept} and their attempts) is deleted. This cannot be undone: to send to it again, add it as a new endpoint, with a new secret.`;
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
      {actionData?.shown ? <SecretShown {...actionData.shown} /> : null}
      {panel?.kind === "reveal" && !actionData?.shown ? (
        <RevealPanel endpoint={panel.endpoint} error={actionData?.passwordError} />
      ) : null}
      {panel?.kind === "delivery" ? <DeliveryPanel delivery={panel.delivery} /> : null}
      {actionData?.secret ? (
        <div role="status" className="mt-3 rounded border border-green-800 bg-green-50 p-3 text-slate-900">
          <p className="font-semibold">Endpoint added. Copy its signing secret now: it is not shown again.</p>
          <p className="mt-2">
            <code className="break-all">{actionData.secret}</code>
          </p>
        </div>
      ) : null}

      <ConsoleSection id="endpoints" heading="Webhook endpoints" className="mt-6">
        {endpoints.length === 0 ? (
          <p className="mt-2 text-slate-800">No endpoints yet: add the first one below.</p>
        ) : (
          endpoints.map((endpoint, index) => <EndpointSection key={endpoint.id} endpoint={endpoint} index={index} />)
        )}
      </ConsoleSection>

      <ConsoleSection id="add-endpoint" heading="Add endpoint">
        <ConsoleForm name="add" action={PAGE} className="mt-3 grid max-w-xl gap-4">
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
        </ConsoleForm>
      </ConsoleSection>
    </>
  );
}
