import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/integrations";
import { DataTable, buttonClass, linkClass } from "./components/TableRegion.tsx";
import { FieldError, TextField } from "./components/FormField.tsx";
import { requireOperator } from "~/server/console/index.server.ts";
import { URL_MAX_LENGTH, WEBHOOK_EVENTS } from "~/server/webhooks/index.server.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { isRowId } from "~/lib/row-id.ts";

export const meta: Route.MetaFunction = () => [{ title: "Integrations" }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  const time = (instant: Date | null) => (instant ? formatTime(instant, context.operatorTimeZone) : null);
  const endpoints = await context.services.webhooks.list();
  return {
    events: WEBHOOK_EVENTS,
    urlMaxLength: URL_MAX_LENGTH,
    endpoints: endpoints.map((endpoint) => ({
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
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
  };
}

const GONE = "That endpoint or delivery no longer exists.";

/** "Add endpoint", and each endpoint's "Send test event", "Resend", "Turn on again" and "Remove endpoint". */
export async function action({ context, request }: Route.ActionArgs) {
  requireOperator(context);
  const { webhooks } = context.services;
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "add") {
    const added = await webhooks.add(form);
    if (added.kind === "invalid") return data({ errors: added.errors, secret: null, error: null }, { status: 400 });
    // The secret is shown this once, in the answer to "Add endpoint"; it is never shown again.
    return data({ errors: {}, secret: added.secret, error: null });
  }
  const endpointId = form.get("endpoint");
  if (!isRowId(endpointId)) return data({ errors: {}, secret: null, error: GONE }, { status: 400 });
  if (intent === "test") {
    if (!(await webhooks.sendTest(endpointId))) return data({ errors: {}, secret: null, error: GONE }, { status: 404 });
  } else if (intent === "resend") {
    const deliveryId = form.get("delivery");
    if (!isRowId(deliveryId) || !(await webhooks.resend(endpointId, deliveryId)))
      return data({ errors: {}, secret: null, error: GONE }, { status: 404 });
  } else if (intent === "turn-on") {
    await webhooks.turnOn(endpointId);
  } else if (intent === "remove") {
    await webhooks.remove(endpointId);
  } else {
    return data({ errors: {}, secret: null, error: "That is not something this page does." }, { status: 400 });
  }
  return redirect("/admin/integrations", 303);
}

const STATES = { pending: "Retrying", delivered: "Delivered", failed: "Failed" } as const;

function ActionButton({
  intent,
  endpoint,
  delivery,
  label,
  children,
}: {
  intent: string;
  endpoint: string;
  delivery?: string;
  /** The accessible name, when the visible text alone does not say which endpoint or delivery. */
  label: string;
  children: string;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="endpoint" value={endpoint} />
      {delivery ? <input type="hidden" name="delivery" value={delivery} /> : null}
      <button type="submit" className={buttonClass} aria-label={label}>
        {children}
      </button>
    </Form>
  );
}

type Endpoint = Route.ComponentProps["loaderData"]["endpoints"][number];

function EndpointSection({ endpoint, index }: { endpoint: Endpoint; index: number }) {
  const headingId = `endpoint-${index}-heading`;
  const state = endpoint.disabledAt
    ? `Turned off on ${endpoint.disabledAt} after failing for 5 days.`
    : endpoint.failingSince
      ? `Failing since ${endpoint.failingSince}.`
      : "On.";
  return (
    <section aria-labelledby={headingId} className="mt-6 rounded border border-slate-300 p-4">
      <h3 id={headingId} className="text-lg font-semibold break-all text-slate-900">
        {endpoint.url}
      </h3>
      <p className="mt-1 text-slate-800">Events: {endpoint.events.join(", ")}</p>
      <p className="mt-1 text-slate-800">{state}</p>
      <div className="mt-3 flex flex-wrap gap-3">
        <ActionButton intent="test" endpoint={endpoint.id} label={`Send test event to ${endpoint.url}`}>
          Send test event
        </ActionButton>
        {endpoint.disabledAt ? (
          <ActionButton intent="turn-on" endpoint={endpoint.id} label={`Turn on again: ${endpoint.url}`}>
            Turn on again
          </ActionButton>
        ) : null}
        <ActionButton intent="remove" endpoint={endpoint.id} label={`Remove endpoint ${endpoint.url}`}>
          Remove endpoint
        </ActionButton>
      </div>
      {endpoint.deliveries.length === 0 ? (
        <p className="mt-3 text-slate-800">No deliveries yet.</p>
      ) : (
        <DataTable
          label={`Recent deliveries to ${endpoint.url}`}
          caption={`Recent deliveries to ${endpoint.url}, newest first`}
          headings={["Event", "Queued", "Status code", "Duration", "Attempts", "State", "Action"]}
        >
          {endpoint.deliveries.map((delivery) => (
            <tr key={delivery.id}>
              <th scope="row" className="font-normal whitespace-nowrap">
                {delivery.event}
              </th>
              <td className="whitespace-nowrap">{delivery.queuedAt}</td>
              <td>{delivery.statusCode ?? (delivery.attempts > 0 ? "No answer" : "None yet")}</td>
              <td className="whitespace-nowrap">
                {delivery.durationMs === null ? "None yet" : `${delivery.durationMs} ms`}
              </td>
              <td>{delivery.attempts}</td>
              <td className="whitespace-nowrap">
                {delivery.state === "pending" && delivery.attempts > 0
                  ? `Retrying at ${delivery.nextAttemptAt}`
                  : delivery.state === "pending"
                    ? "Waiting"
                    : STATES[delivery.state]}
              </td>
              <td>
                <ActionButton
                  intent="resend"
                  endpoint={endpoint.id}
                  delivery={delivery.id}
                  label={`Resend ${delivery.event} of ${delivery.queuedAt}`}
                >
                  Resend
                </ActionButton>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

/** Webhook endpoints with their recent deliveries, and the form to add one. */
export default function Integrations({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoints, events, urlMaxLength } = loaderData;
  const errors: { url?: string; events?: string } = actionData?.errors ?? {};
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
