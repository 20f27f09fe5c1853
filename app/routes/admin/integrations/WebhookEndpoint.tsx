import { Link } from "react-router";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { DataTable, buttonClass, dangerButtonClass, linkClass } from "../components/TableRegion.tsx";

/** One webhook endpoint on the Integrations page: its state, its actions, and its recent deliveries. */

export interface EndpointView {
  id: string;
  url: string;
  events: string[];
  previousSecretUntil: string | null;
  failingSince: string | null;
  disabledAt: string | null;
  deliveries: {
    id: string;
    event: string;
    queuedAt: string | null;
    attempts: number;
    statusCode: number | null;
    durationMs: number | null;
    state: "pending" | "delivered" | "failed";
    nextAttemptAt: string | null;
  }[];
}

const STATES = { pending: "Retrying", delivered: "Delivered", failed: "Failed" } as const;

/**
 * A one-button console form for the endpoint (and a delivery, or other fields): done once however often it is
 * sent, and asked about first when it cannot be undone (`destructive`, a red button).
 */
export function ActionButton({
  intent,
  endpoint,
  row = endpoint,
  fields = {},
  label,
  destructive = false,
  children,
}: {
  intent: string;
  endpoint: string;
  /** The row the form acts on: the endpoint, or one of its deliveries. */
  row?: string;
  fields?: Record<string, string>;
  /** The accessible name, when the visible text alone does not say which endpoint or delivery. */
  label?: string;
  destructive?: boolean;
  children: string;
}) {
  return (
    <ConsoleForm name={intent} row={row} action="/admin/integrations" destructive={destructive}>
      <input type="hidden" name="endpoint" value={endpoint} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={destructive ? dangerButtonClass : buttonClass} aria-label={label}>
        {children}
      </button>
    </ConsoleForm>
  );
}

export function EndpointSection({ endpoint, index }: { endpoint: EndpointView; index: number }) {
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
      {endpoint.previousSecretUntil ? (
        <p className="mt-1 text-slate-800">
          Secret rolled: the old one also signs deliveries until {endpoint.previousSecretUntil}.
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <ActionButton intent="test" endpoint={endpoint.id} label={`Send test event to ${endpoint.url}`}>
          Send test event
        </ActionButton>
        {endpoint.disabledAt ? (
          <ActionButton intent="turn-on" endpoint={endpoint.id} label={`Turn on again: ${endpoint.url}`}>
            Turn on again
          </ActionButton>
        ) : null}
        <Link
          to={`/admin/integrations?reveal=${endpoint.id}`}
          className={buttonClass}
          aria-label={`Reveal secret of ${endpoint.url}`}
        >
          Reveal secret
        </Link>
        <ActionButton intent="roll" endpoint={endpoint.id} label={`Roll secret of ${endpoint.url}`} destructive>
          Roll secret
        </ActionButton>
        <ActionButton intent="remove" endpoint={endpoint.id} label={`Remove endpoint ${endpoint.url}`} destructive>
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
                <Link
                  to={`/admin/integrations?delivery=${delivery.id}`}
                  className={linkClass}
                  aria-label={`Attempts of ${delivery.event} of ${delivery.queuedAt}`}
                >
                  {delivery.event}
                </Link>
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
                  row={delivery.id}
                  fields={{ delivery: delivery.id }}
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
