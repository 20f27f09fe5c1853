import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/outbox";
import { DataTable, buttonClass, cellClass, linkClass } from "./components/TableRegion.tsx";
import { requireOperator } from "~/server/console/index.server.ts";
import { listUnsentEmails, retryEmailNow } from "~/server/outbox/index.server.ts";
import { isRowId } from "~/lib/row-id.ts";

export const meta: Route.MetaFunction = () => [{ title: "Outbox" }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return { emails: await listUnsentEmails(context.services.db, context.operatorTimeZone) };
}

/** "Retry now": the email becomes due now and the outbox worker is woken to send it. */
export async function action({ context, request }: Route.ActionArgs) {
  requireOperator(context);
  const id = (await request.formData()).get("id");
  if (!isRowId(id)) return data({ error: "That is not an email in the outbox." }, { status: 400 });
  if (!(await retryEmailNow(context.services.db, id))) {
    return data({ error: "That email is no longer waiting: it has been sent." }, { status: 409 });
  }
  context.services.outbox.nudge();
  return redirect("/admin/outbox", 303);
}

/** Emails not yet sent, with their attempts, next attempt and last error. */
export default function Outbox({ loaderData, actionData }: Route.ComponentProps) {
  const { emails } = loaderData;
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Outbox</h1>
      <p className="mt-2 text-slate-800">
        Emails not sent yet. A failed email is retried on its own, waiting longer after each attempt, until the mail
        server refuses it for good or days have passed; "Retry now" sends it at once, even one that was given up.
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-3 rounded border border-red-800 bg-red-50 p-3 font-semibold text-red-900">
          {actionData.error}
        </p>
      ) : null}
      {emails.length === 0 ? (
        <p className="mt-4 text-slate-800">Every email has been sent.</p>
      ) : (
        <DataTable
          label="Unsent emails"
          caption="Unsent emails, oldest first"
          headings={["Email", "To", "Queued", "Attempts", "Next attempt", "Last error", "Action"]}
        >
          {emails.map((email) => (
            <tr key={email.id}>
              <th scope="row" className={`${cellClass} font-normal`}>
                {email.contactRequestId ? (
                  <Link to={`/admin/leads/${email.contactRequestId}`} className={linkClass}>
                    {email.subject}
                  </Link>
                ) : (
                  email.subject
                )}
              </th>
              <td className={`${cellClass} break-all`}>{email.toAddress}</td>
              <td className={`${cellClass} whitespace-nowrap`}>{email.queuedAt}</td>
              <td className={cellClass}>{email.attempts}</td>
              <td className={`${cellClass} whitespace-nowrap`}>
                {email.failed ? "None: given up" : email.nextAttemptAt}
              </td>
              <td className={`${cellClass} min-w-48 break-words`}>{email.lastError ?? "None"}</td>
              <td className={cellClass}>
                <Form method="post">
                  <input type="hidden" name="id" value={email.id} />
                  <button type="submit" className={buttonClass} aria-label={`Retry now: ${email.subject}`}>
                    Retry now
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
