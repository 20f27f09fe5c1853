import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/lead";
import { DataTable, buttonClass, cellClass, fieldClass, linkClass } from "./components/TableRegion.tsx";
import { StatusText } from "./components/StatusText.tsx";
import { telHref } from "./components/links.ts";
import { env } from "~/config/env.server.ts";
import { NOTE_MAX_LENGTH } from "~/lib/console-limits.ts";
import { LEAD_STATUSES } from "~/lib/lead-status.ts";
import { leadDetail } from "~/server/leads/lead-detail.server.ts";
import { updateLead, validateLeadUpdate } from "~/server/leads/lead-update.server.ts";
import { requireOperator } from "~/server/console/operator.server.ts";
import { isRowId } from "~/lib/row-id.ts";
import { AMOUNT_MAX_LENGTH, centsToDecimal, formatMoney, parseAmount } from "~/lib/money.ts";
import { setJobValue } from "~/server/leads/conversion-leads.server.ts";

export const meta: Route.MetaFunction = ({ data: lead }) => [
  { title: lead ? `${lead.firstName} ${lead.lastName}` : "Lead" },
  { name: "robots", content: "noindex" },
];

export async function loader({ context, params }: Route.LoaderArgs) {
  requireOperator(context);
  const lead = await leadDetail(context.services.db, params.id, env.OPERATOR_TIME_ZONE);
  if (!lead) throw data(null, { status: 404 });
  return { ...lead, currency: env.CONVERSION_CURRENCY };
}

/**
 * "Save": the status and a note; "Set job value": what the booked job is worth. Then back to this page (POST, then
 * redirect), or the form's errors with a 400.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  if (!isRowId(params.id)) throw data(null, { status: 404 });
  const form = await request.formData();
  if (form.get("intent") === "job-value") {
    const text = form.get("jobValue");
    const cents = typeof text !== "string" || text.trim() === "" ? null : parseAmount(text);
    if (typeof text === "string" && text.trim() !== "" && cents === null) {
      return data(
        { errors: { jobValue: "Enter an amount such as 450 or 1,250.50, or leave it empty." } },
        { status: 400 },
      );
    }
    const note =
      cents === null ? "Job value cleared." : `Job value set to ${formatMoney(cents, env.CONVERSION_CURRENCY)}.`;
    const found = await setJobValue(context.services.db, params.id, cents, { operatorEmail: operator.email, note });
    if (!found) throw data(null, { status: 404 });
    return redirect(`/admin/leads/${params.id}`, 303);
  }
  const result = validateLeadUpdate(form);
  if (!result.success) return data({ errors: result.errors }, { status: 400 });
  const found = await updateLead(context.services.db, params.id, result.update, operator.email);
  if (!found) throw data(null, { status: 404 });
  return redirect(`/admin/leads/${params.id}`, 303);
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="border-b border-slate-200 py-2 sm:grid sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="font-semibold text-slate-900">{term}</dt>
      <dd className="mt-1 break-words text-slate-900 sm:mt-0">{children}</dd>
    </div>
  );
}

/** One contact request: what the visitor sent, the status and notes, the history, and its emails. */
export default function Lead({ loaderData: lead, actionData }: Route.ComponentProps) {
  const errors: { status?: string; note?: string; jobValue?: string } | undefined = actionData?.errors;
  return (
    <>
      <p>
        <Link to="/admin" className={linkClass}>
          Back to the inbox
        </Link>
      </p>
      <h1 className="mt-3 text-2xl font-bold text-slate-900">
        {lead.firstName} {lead.lastName}
      </h1>
      <p className="mt-1 text-slate-800">
        Status: <StatusText status={lead.status} />
      </p>

      <section aria-labelledby="request-heading" className="mt-6">
        <h2 id="request-heading" className="text-xl font-bold text-slate-900">
          What they sent
        </h2>
        <dl className="mt-2">
          <Detail term="Received">{lead.receivedAt}</Detail>
          <Detail term="Name">
            {lead.firstName} {lead.lastName}
          </Detail>
          <Detail term="Phone">
            <a href={telHref(lead.phone)} className={linkClass}>
              {lead.phone}
            </a>
          </Detail>
          <Detail term="Email">
            <a href={`mailto:${lead.email}`} className={`${linkClass} break-all`}>
              {lead.email}
            </a>
          </Detail>
          <Detail term="Service">{lead.service}</Detail>
          <Detail term="Message">
            <span className="whitespace-pre-wrap">{lead.message}</span>
          </Detail>
          <Detail term="Channel">{lead.channel === "api" ? "API (the JSON endpoint)" : "The page's form"}</Detail>
          <Detail term="Global Privacy Control">
            {lead.globalPrivacyControl ? "Yes: their browser asked not to sell or share their information" : "No"}
          </Detail>
          <Detail term="Consent text shown">{lead.consentText}</Detail>
        </dl>
      </section>

      <section aria-labelledby="attribution-heading" className="mt-8">
        <h2 id="attribution-heading" className="text-xl font-bold text-slate-900">
          How they found us
        </h2>
        {lead.attribution.length ? (
          <dl className="mt-2">
            {lead.attribution.map(([label, value]) => (
              <Detail key={label} term={label}>
                {value}
              </Detail>
            ))}
          </dl>
        ) : (
          <p className="mt-2 text-slate-800">Not known: the visit sent no landing page or campaign.</p>
        )}
      </section>

      <section aria-labelledby="update-heading" className="mt-8">
        <h2 id="update-heading" className="text-xl font-bold text-slate-900">
          Follow-up
        </h2>
        <Form method="post" className="mt-3 grid max-w-xl gap-4" noValidate>
          <div>
            <label htmlFor="lead-status" className="font-semibold text-slate-900">
              Status
            </label>
            <select
              id="lead-status"
              name="status"
              defaultValue={lead.status}
              aria-invalid={errors?.status ? true : undefined}
              aria-describedby={errors?.status ? "lead-status-error" : undefined}
              className={fieldClass}
            >
              {LEAD_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
            {errors?.status ? (
              <p id="lead-status-error" className="mt-1 font-semibold text-red-800">
                {errors.status}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor="lead-note" className="font-semibold text-slate-900">
              Note
            </label>
            <textarea
              id="lead-note"
              name="note"
              rows={4}
              maxLength={NOTE_MAX_LENGTH}
              aria-invalid={errors?.note ? true : undefined}
              aria-describedby={errors?.note ? "lead-note-hint lead-note-error" : "lead-note-hint"}
              className={fieldClass}
            />
            <p id="lead-note-hint" className="mt-1 text-sm text-slate-700">
              Added to the history with your name and the time; up to {NOTE_MAX_LENGTH.toLocaleString("en-US")}{" "}
              characters.
            </p>
            {errors?.note ? (
              <p id="lead-note-error" className="mt-1 font-semibold text-red-800">
                {errors.note}
              </p>
            ) : null}
          </div>
          <div>
            <button type="submit" className={buttonClass}>
              Save
            </button>
          </div>
        </Form>
      </section>

      <section aria-labelledby="job-value-heading" className="mt-8">
        <h2 id="job-value-heading" className="text-xl font-bold text-slate-900">
          Job value
        </h2>
        <Form method="post" className="mt-3 grid max-w-xl gap-4" noValidate>
          <input type="hidden" name="intent" value="job-value" />
          <div>
            <label htmlFor="lead-job-value" className="font-semibold text-slate-900">
              Job value ({lead.currency})
            </label>
            <input
              // The saved value, also after a save in the page (an uncontrolled field keeps what was typed).
              key={lead.jobValueCents ?? ""}
              id="lead-job-value"
              name="jobValue"
              inputMode="decimal"
              maxLength={AMOUNT_MAX_LENGTH}
              defaultValue={lead.jobValueCents === null ? "" : centsToDecimal(lead.jobValueCents)}
              aria-invalid={errors?.jobValue ? true : undefined}
              aria-describedby={errors?.jobValue ? "lead-job-value-hint lead-job-value-error" : "lead-job-value-hint"}
              className={fieldClass}
            />
            <p id="lead-job-value-hint" className="mt-1 text-sm text-slate-700">
              What the booked job is worth: sent to the ad platforms with the &quot;Booked job&quot; conversion in place
              of its default value (empty: the default). Set it before the next conversions download: a booked job
              already downloaded is not sent again.
            </p>
            {errors?.jobValue ? (
              <p id="lead-job-value-error" className="mt-1 font-semibold text-red-800">
                {errors.jobValue}
              </p>
            ) : null}
          </div>
          <div>
            <button type="submit" className={buttonClass}>
              Set job value
            </button>
          </div>
        </Form>
      </section>

      <section aria-labelledby="history-heading" className="mt-8">
        <h2 id="history-heading" className="text-xl font-bold text-slate-900">
          History
        </h2>
        {lead.history.length === 0 ? (
          <p className="mt-2 text-slate-800">No changes yet.</p>
        ) : (
          <ol className="mt-2 grid gap-3">
            {lead.history.map((change) => (
              <li key={change.id} className="rounded border border-slate-300 p-3">
                <p className="text-sm text-slate-800">
                  {change.changedAt}, by {change.changedBy}
                </p>
                {change.statusFrom && change.statusTo ? (
                  <p className="mt-1 text-slate-900">
                    Status {change.statusFrom} → {change.statusTo}
                  </p>
                ) : null}
                {change.note ? (
                  <p className="mt-1 whitespace-pre-wrap break-words text-slate-900">Note: {change.note}</p>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="emails-heading" className="mt-8">
        <h2 id="emails-heading" className="text-xl font-bold text-slate-900">
          Emails
        </h2>
        {lead.emails.length === 0 ? (
          <p className="mt-2 text-slate-800">No emails were queued for this request.</p>
        ) : (
          <DataTable
            label="Emails for this request"
            caption="Emails for this request and their delivery"
            headings={["Email", "To", "Queued", "Delivery"]}
          >
            {lead.emails.map((email) => (
              <tr key={email.id}>
                <th scope="row" className={`${cellClass} font-normal`}>
                  {email.subject}
                </th>
                <td className={`${cellClass} break-all`}>{email.toAddress}</td>
                <td className={`${cellClass} whitespace-nowrap`}>{email.queuedAt}</td>
                <td className={cellClass}>
                  {email.sentAt ? (
                    `Sent ${email.sentAt}`
                  ) : (
                    <>
                      Pending: {email.attempts} attempt{email.attempts === 1 ? "" : "s"}, next {email.nextAttemptAt}
                      {email.lastError ? (
                        <span className="block break-words">Last error: {email.lastError}</span>
                      ) : null}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </>
  );
}
