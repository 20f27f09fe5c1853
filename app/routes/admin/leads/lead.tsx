import { data, Link } from "react-router";
import type { Route } from "./+types/lead";
import { DataTable, buttonClass, fieldClass, linkClass } from "../components/TableRegion.tsx";
import { CallsTable } from "../components/CallsTable.tsx";
import { TextThread } from "../components/TextThread.tsx";
import { ConsoleSection } from "../components/ConsoleSection.tsx";
import { FieldError, TextField } from "../components/FormField.tsx";
import { StatusText } from "./StatusText.tsx";
import { telHref } from "../components/links.ts";
import { NOTE_MAX_LENGTH } from "~/lib/console-limits.ts";
import { LEAD_STATUSES } from "~/lib/lead-status.ts";
import { callsFromPhone } from "~/server/calls/index.server.ts";
import { customerNumber, customerThread, threadPath } from "~/server/texts/index.server.ts";
import {
  leadDetail,
  markLeadOpened,
  referralJob,
  setLeadZip,
  updateLead,
  validateLeadUpdate,
  validateLeadZip,
  setJobValue,
} from "~/server/leads/index.server.ts";
import { done, invalid, requireOperator } from "~/server/console/index.server.ts";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { findPartner, leadReferrals, referralCandidates } from "~/server/partners/index.server.ts";
import { formatMinor, leadEntries, leadReturnsOf } from "~/server/ledger/index.server.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { WEBHOOK_QUEUE } from "~/server/webhooks/index.server.ts";
import { isRowId } from "~/lib/row-id.ts";
import { PARTNER_SERVICES } from "~/content/partner-services.ts";
import { ReferSection, type ReferErrors } from "./ReferSection.tsx";
import { AMOUNT_MAX_LENGTH, centsToDecimal, formatMoney, parseAmount } from "~/lib/money.ts";
import { postedForm } from "~/server/http/index.server.ts";

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: loaded ? `${loaded.lead.firstName} ${loaded.lead.lastName}` : "Lead" },
  { name: "robots", content: "noindex" },
];

export async function loader({ context, params, request }: Route.LoaderArgs) {
  requireOperator(context);
  const { db } = context.services;
  const lead = await leadDetail(db, params.id, context.operatorTimeZone);
  if (!lead) throw data(null, { status: 404 });
  // Opening the page counts as an operator having seen the lead: it is not escalated.
  await markLeadOpened(db, params.id);
  const chosenService = new URL(request.url).searchParams.get("service");
  const service = chosenService && PARTNER_SERVICES.includes(chosenService) ? chosenService : null;
  // The customer's texts, when texting is on and the lead's phone can be texted.
  const textTo = context.services.texts ? customerNumber(lead.phone) : null;
  const [candidates, referrals, job, calls, thread, entries, returns] = await Promise.all([
    referralCandidates(db, { zip: lead.zip, service }),
    leadReferrals(db, params.id, context.operatorTimeZone),
    referralJob(db, params.id),
    callsFromPhone(db, lead.phone, context.operatorTimeZone),
    textTo ? customerThread(db, textTo, context.operatorTimeZone) : null,
    leadEntries(db, params.id),
    leadReturnsOf(db, params.id),
  ]);
  const money = await leadMoney(context, entries, returns);
  return {
    lead,
    calls,
    texts: thread ? { thread, path: threadPath(thread.customer) } : null,
    // "Text this customer": "New text" with the lead's number in it.
    newTextPath: textTo ? `/admin/texts?${new URLSearchParams({ to: textTo })}#new-text-heading` : null,
    textingOn: context.services.texts !== undefined,
    currency: context.services.conversions.currency,
    money,
    refer: { candidates, referrals, service, services: PARTNER_SERVICES, optOut: job?.optOut ?? null },
  };
}

const ENTRY_NAMES = { charge: "Charge", credit: "Credit", payment: "Payment", adjustment: "Adjustment" } as const;

/** What the lead was worth to the business: each partner's charge for it, their return, and its credit, in order. */
async function leadMoney(
  context: Route.LoaderArgs["context"],
  entries: Awaited<ReturnType<typeof leadEntries>>,
  returns: Awaited<ReturnType<typeof leadReturnsOf>>,
) {
  const { currency } = context.services.conversions;
  const names = new Map<string, string>();
  for (const partnerId of new Set([...entries, ...returns].map((row) => row.partnerId))) {
    names.set(partnerId, (await findPartner(context.services.db, partnerId))?.name ?? "A removed partner");
  }
  const rows = [
    ...entries.map((entry) => ({
      id: entry.id,
      at: entry.recordedAt,
      what: ENTRY_NAMES[entry.kind],
      partnerId: entry.partnerId,
      amount: formatMinor(entry.amountMinor, currency),
    })),
    ...returns.map((row) => ({
      id: row.id,
      at: row.requestedAt,
      what: `Return (${row.reason}): ${row.decision === "approved" ? "approved" : row.decision === "denied" ? "denied" : "waiting for a decision"}`,
      partnerId: row.partnerId,
      amount: "",
    })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  return rows.map(({ at, partnerId, ...row }) => ({
    ...row,
    when: formatTime(at, context.operatorTimeZone),
    partnerId,
    partner: names.get(partnerId) ?? "",
  }));
}

const OFFER_ERRORS = {
  "no-partners": { status: 400, message: "Choose at least one active partner." },
  "needs-confirmation": {
    status: 400,
    message: "This visitor opted out of the sale or sharing of their information: confirm before sending.",
  },
  taken: { status: 409, message: "A partner has already accepted this job." },
} as const;

/**
 * "Save" (the status and a note), "Set job value" (what the booked job is worth), "Set ZIP" and "Send referral",
 * each then back to this page (POST, then redirect), or the form's errors with a 400 (409 when the job is
 * already taken).
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  if (!isRowId(params.id)) throw data(null, { status: 404 });
  const form = await postedForm(request);
  const intent = form.get("intent");
  const { db } = context.services;
  const here = `/admin/leads/${params.id}`;
  const noErrors = { errors: undefined, refer: undefined };
  return context.services.consoleForms.once(request, operator, form, async () => {
    if (intent === "zip") {
      const zip = validateLeadZip(form);
      if (!zip.success) return invalid({ ...noErrors, refer: { zip: zip.error } satisfies ReferErrors });
      if (!(await setLeadZip(db, params.id, zip.zip))) throw data(null, { status: 404 });
      return done(`ZIP set to ${zip.zip}.`, here);
    }
    if (intent === "refer") {
      const partnerIds = form
        .getAll("partner")
        .filter((value) => typeof value === "string")
        .slice(0, 50);
      const outcome = await context.services.referrals.offer({
        leadId: params.id,
        partnerIds,
        operatorEmail: operator.email,
        optOutConfirmed: form.get("confirmOptOut") === "yes",
      });
      if (outcome.kind === "no-lead") throw data(null, { status: 404 });
      if (outcome.kind !== "sent") {
        const error = OFFER_ERRORS[outcome.kind];
        return invalid({ ...noErrors, refer: { partners: error.message } satisfies ReferErrors }, error.status);
      }
      return done(
        partnerIds.length === 1 ? "Referral sent to 1 partner." : `Referral sent to ${partnerIds.length} partners.`,
        here,
      );
    }
    if (intent === "job-value") {
      const text = form.get("jobValue");
      const cents = typeof text !== "string" || text.trim() === "" ? null : parseAmount(text);
      if (typeof text === "string" && text.trim() !== "" && cents === null) {
        return invalid({
          ...noErrors,
          errors: { jobValue: "Enter an amount such as 450 or 1,250.50, or leave it empty." },
        });
      }
      const currency = context.services.conversions.currency;
      const note = cents === null ? "Job value cleared." : `Job value set to ${formatMoney(cents, currency)}.`;
      if (!(await setJobValue(db, params.id, cents, { operatorEmail: operator.email, note }))) {
        throw data(null, { status: 404 });
      }
      return done(note, here);
    }
    const result = validateLeadUpdate(form);
    if (!result.success) return invalid({ ...noErrors, errors: result.errors });
    const found = await updateLead(db, params.id, result.update, operator.email);
    if (!found) throw data(null, { status: 404 });
    // Its lead.updated webhooks, if any endpoint wants them, were queued with the change: sent now.
    context.services.outbox.nudge(WEBHOOK_QUEUE);
    return done("Status and note saved.", here);
  });
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="border-b border-slate-200 py-2 sm:grid sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="font-semibold text-slate-900">{term}</dt>
      <dd className="mt-1 break-words text-slate-900 sm:mt-0">{children}</dd>
    </div>
  );
}

/** One contact request: what the visitor sent, the status and notes, referrals, the history, emails and calls. */
export default function Lead({ loaderData, actionData }: Route.ComponentProps) {
  const { lead, calls, currency, refer } = loaderData;
  const errors: { status?: string; note?: string; jobValue?: string } | undefined = actionData?.errors;
  return (
    <>
      {/* On a phone, calling and writing back stay in view while the page scrolls, the follow-up form a tap away. */}
      <nav
        aria-label="Answer the visitor"
        data-answer-bar
        className="sticky top-0 z-10 -mx-4 flex gap-3 border-b border-slate-300 bg-white px-4 py-2 sm:hidden"
      >
        <a href={telHref(lead.phone)} className={`${buttonClass} flex-1 text-center`}>
          Call
        </a>
        <a href={`mailto:${lead.email}`} className={`${buttonClass} flex-1 text-center`}>
          Email
        </a>
        <a href="#update-heading" className={`${linkClass} self-center`}>
          Status and note
        </a>
      </nav>
      <p className="mt-3 sm:mt-0">
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
      {loaderData.newTextPath ? (
        <p className="mt-2">
          <Link to={loaderData.newTextPath} className={linkClass}>
            Text this customer
          </Link>
        </p>
      ) : null}

      <ConsoleSection id="request" heading="What they sent" className="mt-6">
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
      </ConsoleSection>

      <ConsoleSection id="attribution" heading="How they found us">
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
      </ConsoleSection>

      <ConsoleSection id="update" heading="Follow-up">
        <ConsoleForm name="update" className="mt-3 grid max-w-xl gap-4">
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
            <FieldError id="lead-status-error" error={errors?.status} />
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
            <FieldError id="lead-note-error" error={errors?.note} />
          </div>
          <div>
            <button type="submit" className={buttonClass}>
              Save
            </button>
          </div>
        </ConsoleForm>
      </ConsoleSection>

      <ConsoleSection id="job-value" heading="Job value">
        <ConsoleForm name="job-value" className="mt-3 grid max-w-xl gap-4">
          <TextField
            // The saved value, also after a save in the page (an uncontrolled field keeps what was typed).
            key={lead.jobValueCents ?? ""}
            id="lead-job-value"
            name="jobValue"
            label={`Job value (${currency})`}
            hint='What the booked job is worth: sent to the ad platforms with the "Booked job" conversion in place of its default value (empty: the default). Set it before the next conversions download: a booked job already downloaded is not sent again.'
            inputMode="decimal"
            maxLength={AMOUNT_MAX_LENGTH}
            defaultValue={lead.jobValueCents === null ? "" : centsToDecimal(lead.jobValueCents)}
            error={errors?.jobValue}
          />
          <div>
            <button type="submit" className={buttonClass}>
              Set job value
            </button>
          </div>
        </ConsoleForm>
      </ConsoleSection>

      <ReferSection zip={lead.zip} refer={refer} errors={actionData?.refer} />

      <ConsoleSection
        id="money"
        heading="Charges, returns and credits"
        isEmpty={loaderData.money.length === 0}
        emptyText="None: no partner has been charged for this lead."
      >
        <DataTable
          label="Charges, returns and credits"
          caption="Charges, returns and credits of this lead, oldest first"
          headings={["When", "What", "Partner", "Amount"]}
        >
          {loaderData.money.map((row) => (
            <tr key={row.id}>
              <td className="whitespace-nowrap">{row.when}</td>
              <th scope="row" className="font-normal">
                {row.what}
              </th>
              <td>
                <Link to={`/admin/partners/${row.partnerId}`} className={linkClass}>
                  {row.partner}
                </Link>
              </td>
              <td className="whitespace-nowrap">{row.amount}</td>
            </tr>
          ))}
        </DataTable>
      </ConsoleSection>

      <ConsoleSection id="history" heading="History" isEmpty={lead.history.length === 0} emptyText="No changes yet.">
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
      </ConsoleSection>

      <ConsoleSection
        id="emails"
        heading="Emails"
        isEmpty={lead.emails.length === 0}
        emptyText="No emails were queued for this request."
      >
        <DataTable
          label="Emails for this request"
          caption="Emails for this request and their delivery"
          headings={["Email", "To", "Queued", "Delivery"]}
        >
          {lead.emails.map((email) => (
            <tr key={email.id}>
              <th scope="row" className="font-normal">
                {email.subject}
              </th>
              <td className="whitespace-nowrap">{email.toAddress}</td>
              <td className="whitespace-nowrap">{email.queuedAt}</td>
              <td>
                {email.sentAt ? (
                  `Sent ${email.sentAt}`
                ) : (
                  <>
                    Pending: {email.attempts} attempt{email.attempts === 1 ? "" : "s"}, next {email.nextAttemptAt}
                    {email.lastError ? <span className="block break-words">Last error: {email.lastError}</span> : null}
                  </>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </ConsoleSection>

      <ConsoleSection
        id="calls"
        heading={`Calls from ${lead.phone}`}
        isEmpty={calls.length === 0}
        emptyText="No calls from this number."
      >
        <CallsTable
          label="Calls from this number"
          caption="Calls from this lead's phone number, newest first"
          rows={calls}
          textingOn={loaderData.textingOn}
        />
      </ConsoleSection>

      {loaderData.texts ? (
        <ConsoleSection id="texts" heading={`Texts with ${loaderData.texts.thread.customer}`}>
          <TextThread
            thread={loaderData.texts.thread}
            action={loaderData.texts.path}
            back={`/admin/leads/${lead.id}`}
          />
        </ConsoleSection>
      ) : null}
    </>
  );
}
