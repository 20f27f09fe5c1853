import { Link } from "react-router";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { DataTable, buttonClass, linkClass } from "../components/TableRegion.tsx";
import { TextField } from "../components/FormField.tsx";
import { ActionButton } from "./WebhookEndpoint.tsx";

/**
 * The Integrations page's second steps, each at its own address so they work without JavaScript: the password
 * before a secret is revealed, and one delivery's attempts.
 */

const panelClass = "mt-6 rounded border-2 border-slate-700 p-4";

/** "Reveal secret": the operator's password first. */
export function RevealPanel({ endpoint, error }: { endpoint: { id: string; url: string }; error?: string }) {
  return (
    <section aria-labelledby="reveal-heading" className={panelClass}>
      <h2 id="reveal-heading" className="text-xl font-bold break-all text-slate-900">
        Reveal the secret of {endpoint.url}
      </h2>
      <p className="mt-2 text-slate-800">Type your password again to see the secret deliveries are signed with.</p>
      <ConsoleForm
        name="reveal"
        row={endpoint.id}
        action={`/admin/integrations?reveal=${endpoint.id}`}
        className="mt-3 grid max-w-md gap-3"
      >
        <input type="hidden" name="endpoint" value={endpoint.id} />
        <TextField
          id="reveal-password"
          name="password"
          label="Your password"
          type="password"
          autoComplete="current-password"
          required
          error={error}
        />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={buttonClass}>
            Reveal secret
          </button>
          <Link to="/admin/integrations" className={linkClass}>
            Cancel
          </Link>
        </div>
      </ConsoleForm>
    </section>
  );
}

/** Secrets shown this once, in the answer to the right password or to "Roll secret". */
export interface Shown {
  title: string;
  secret: string;
  previous: { secret: string | null; until: string } | null;
}

/** The secrets, once the password was right (or a new one just rolled). */
export function SecretShown({ title, secret, previous }: Shown) {
  return (
    <div role="status" className="mt-3 rounded border border-green-800 bg-green-50 p-3 text-slate-900">
      <p className="font-semibold">{title}</p>
      <p className="mt-2">
        <code className="break-all">{secret}</code>
      </p>
      {previous ? (
        <p className="mt-2">
          The old secret{previous.secret ? <code className="mx-1 break-all">{previous.secret}</code> : " "}also signs
          every delivery until {previous.until}, so the receiving end keeps verifying them until it has the new one.
        </p>
      ) : null}
    </div>
  );
}

export interface DeliveryView {
  id: string;
  endpointId: string;
  url: string;
  event: string;
  messageId: string;
  body: string;
  queuedAt: string;
  state: string;
  attempts: {
    at: string;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
    responseHead: string | null;
  }[];
}

/** One delivery: the request's body as sent, and every attempt with the start of its answer. */
export function DeliveryPanel({ delivery }: { delivery: DeliveryView }) {
  return (
    <section aria-labelledby="delivery-heading" className={panelClass}>
      <h2 id="delivery-heading" className="text-xl font-bold break-all text-slate-900">
        {delivery.event} to {delivery.url}
      </h2>
      <p className="mt-1 text-slate-800">
        Queued {delivery.queuedAt}. {delivery.state}.{" "}
        <code className="break-all">webhook-id: {delivery.messageId}</code>
      </p>
      <h3 className="mt-3 font-semibold text-slate-900">Request body</h3>
      <pre className="mt-1 max-h-80 overflow-auto rounded bg-slate-100 p-3 text-sm whitespace-pre-wrap break-all text-slate-900">
        {delivery.body}
      </pre>
      {delivery.attempts.length === 0 ? (
        <p className="mt-3 text-slate-800">Not attempted yet.</p>
      ) : (
        <DataTable
          label="Attempts"
          caption={`Attempts of this delivery, newest first`}
          headings={["Attempted", "Status code", "Duration", "Answer (first 2 KB)"]}
        >
          {delivery.attempts.map((attempt, index) => (
            <tr key={index}>
              <th scope="row" className="font-normal whitespace-nowrap">
                {attempt.at}
              </th>
              <td>{attempt.statusCode ?? "No answer"}</td>
              <td className="whitespace-nowrap">{attempt.durationMs} ms</td>
              <td>
                {attempt.error ? <p className="font-semibold">{attempt.error}</p> : null}
                {attempt.responseHead ? (
                  <pre className="max-w-xl text-sm whitespace-pre-wrap break-all">{attempt.responseHead}</pre>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <ActionButton
          intent="resend"
          endpoint={delivery.endpointId}
          row={delivery.id}
          fields={{ delivery: delivery.id }}
        >
          Resend
        </ActionButton>
        <Link to="/admin/integrations" className={linkClass}>
          Back to endpoints
        </Link>
      </div>
    </section>
  );
}
