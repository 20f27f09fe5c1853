import { Link } from "react-router";
import type { Route } from "./+types/partners";
import { DataTable, buttonClass, fieldClass, linkClass } from "../components/TableRegion.tsx";
import { FieldError, TextField } from "../components/FormField.tsx";
import { PartnerForm } from "./PartnerForm.tsx";
import { PARTNER_SERVICES } from "~/content/partner-services.ts";
import { confirmFirst, confirmed, done, invalid, requireOperator } from "~/server/console/index.server.ts";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { formatDuration } from "~/lib/duration.ts";
import { callFeeHint } from "./partner-hints.server.ts";
import { postedForm } from "~/server/http/index.server.ts";
import {
  activePartnerWithEmail,
  addPartner,
  listPartners,
  routingSettings,
  saveRoutingSettings,
  validatePartner,
  validateRoutingForm,
} from "~/server/partners/index.server.ts";
import {
  balances,
  defaultFee,
  paymentInstructions,
  formatMinor,
  lastMonth,
  minorToDecimal,
  parseAmount,
  setDefaultFee,
  setPaymentInstructions,
} from "~/server/ledger/index.server.ts";
import { ConsoleSection } from "../components/ConsoleSection.tsx";

export const meta: Route.MetaFunction = () => [{ title: "Partners" }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  const { db } = context.services;
  const { currency } = context.services.conversions;
  const [partners, owed, fee, routing, howToPay, unissuedStatements] = await Promise.all([
    listPartners(db),
    balances(db),
    defaultFee(db),
    routingSettings(db),
    paymentInstructions(db),
    context.services.referrals.lastMonthUnissued(),
  ]);
  return {
    partners: partners.map((partner) => ({ ...partner, balance: formatMinor(owed.get(partner.id) ?? 0, currency) })),
    services: PARTNER_SERVICES,
    defaultFee: minorToDecimal(fee, currency),
    paymentInstructions: howToPay,
    feeHint: `In ${currency}, charged when the partner accepts a referral. Blank: the default fee (${formatMinor(fee, currency)}).`,
    callFeeHint: callFeeHint(routing.defaultCallFeeMinor, currency),
    routing: { ...routing, defaultCallFee: minorToDecimal(routing.defaultCallFeeMinor, currency) },
    currency,
    ledgerMonth: lastMonth(new Date(), context.operatorTimeZone),
    unissuedStatements,
  };
}

/**
 * "Save partner" for a new partner, "Save default fee" for partners without a fee of their own, or "Save routing"
 * for calls and new leads.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const form = await postedForm(request);
  const { db } = context.services;
  const { currency } = context.services.conversions;
  return context.services.consoleForms.once(request, operator, form, async () => {
    if (form.get("intent") === "default-fee") {
      const text = String(form.get("defaultFee") ?? "");
      const parsed = text.trim() === "0" ? { ok: true as const, minor: 0 } : parseAmount(text, currency);
      if (!parsed.ok)
        return invalid({
          errors: undefined,
          sameEmail: undefined,
          defaultFeeError: parsed.error,
          routingError: undefined,
          paymentInstructionsError: undefined,
        });
      await setDefaultFee(db, parsed.minor);
      return done(`Default fee set to ${formatMinor(parsed.minor, currency)}.`, "/admin/partners");
    }
    if (form.get("intent") === "payment-instructions") {
      const saved = await setPaymentInstructions(db, String(form.get("paymentInstructions") ?? ""));
      if (!saved.ok)
        return invalid({
          errors: undefined,
          sameEmail: undefined,
          defaultFeeError: undefined,
          routingError: undefined,
          paymentInstructionsError: saved.error,
        });
      return done(
        saved.text ? "Payment instructions saved: statements show them." : "Payment instructions removed.",
        "/admin/partners",
      );
    }
    if (form.get("intent") === "issue-statements") {
      // Last month's statements are frozen and numbered once issued: asked first, and issued once.
      const due = await context.services.referrals.lastMonthUnissued();
      if (due === 0) return done("Last month's statements were already issued.", "/admin/partners");
      if (!confirmed(form)) {
        return confirmFirst(
          `Issue last month's ${due === 1 ? "statement" : `${due} statements`} now? Each is numbered and emailed to its partner, and cannot be changed afterwards.`,
          "Yes, issue statements",
        );
      }
      const issued = await context.services.referrals.issueLastMonthNow();
      return done(
        issued === 1 ? "1 statement of last month issued." : `${issued} statements of last month issued.`,
        "/admin/partners",
      );
    }
    if (form.get("intent") === "routing") {
      const checked = validateRoutingForm(form, currency);
      if (!checked.ok) {
        return invalid({
          errors: undefined,
          sameEmail: undefined,
          defaultFeeError: undefined,
          routingError: checked.error,
          paymentInstructionsError: undefined,
        });
      }
      await saveRoutingSettings(db, checked.settings);
      const { routeCalls, defaultCallFeeMinor, referAutomatically } = checked.settings;
      return done(
        `Routing saved: calls ${routeCalls ? "routed to partners" : "not routed"}, default fee per call ${formatMinor(defaultCallFeeMinor, currency)}, new leads ${referAutomatically ? "referred automatically" : "not referred automatically"}.`,
        "/admin/partners",
      );
    }
    const result = validatePartner(form, currency);
    if (!result.success) {
      return invalid({
        errors: result.errors,
        sameEmail: undefined,
        defaultFeeError: undefined,
        routingError: undefined,
        paymentInstructionsError: undefined,
      });
    }
    const sameEmail = await activePartnerWithEmail(db, result.partner.email);
    if (sameEmail) {
      return invalid({
        errors: { email: "Another active partner has this email." },
        sameEmail,
        defaultFeeError: undefined,
        routingError: undefined,
        paymentInstructionsError: undefined,
      });
    }
    await addPartner(db, result.partner);
    return done(`Partner ${result.partner.name} added.`, "/admin/partners");
  });
}

function acceptanceRate(offered: number, accepted: number): string {
  return offered === 0 ? "None offered" : `${Math.round((accepted / offered) * 100)}%`;
}

/** The partner plumbers leads are referred to, how each answers, and the form to add one. */
export default function Partners({ loaderData, actionData }: Route.ComponentProps) {
  const { partners, services, feeHint, callFeeHint, currency, routing } = loaderData;
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Partners</h1>
      {partners.length === 0 ? (
        <p className="mt-4 text-slate-800">No partners yet: add the first one below.</p>
      ) : (
        <DataTable
          label="Partners"
          caption="Partner plumbers and how they answer referrals"
          headings={[
            "Name",
            "Business",
            "Phone",
            "Services",
            "Offered",
            "Accepted",
            "Acceptance rate",
            "Median time to answer",
            "Balance",
            "Calls",
            "Status",
          ]}
        >
          {partners.map((partner) => (
            <tr key={partner.id}>
              <th scope="row" className="font-normal">
                <Link to={`/admin/partners/${partner.id}`} className={linkClass}>
                  {partner.name}
                </Link>
              </th>
              <td>{partner.business}</td>
              <td className="whitespace-nowrap">{partner.phone}</td>
              <td>{partner.services.join(", ")}</td>
              <td>{partner.offered}</td>
              <td>{partner.accepted}</td>
              <td className="whitespace-nowrap">{acceptanceRate(partner.offered, partner.accepted)}</td>
              <td className="whitespace-nowrap">
                {partner.medianAnswerSeconds === null ? "No answers yet" : formatDuration(partner.medianAnswerSeconds)}
              </td>
              <td className="whitespace-nowrap">{partner.balance}</td>
              <td>{partner.takesCalls ? `Priority ${partner.priority}, ${partner.hours}` : "No calls"}</td>
              <td>{!partner.active ? "Deactivated" : partner.pausedAt ? "Paused" : "Active"}</td>
            </tr>
          ))}
        </DataTable>
      )}

      <ConsoleSection id="ledger" heading="Ledger for the accountant">
        <p className="mt-1 max-w-2xl text-slate-800">
          Every partner&apos;s entries recorded in the months chosen, with running balances, in columns QuickBooks
          Online (Date, Description, Amount) and Xero import.
        </p>
        {/* A download, not a page: the browser fetches the file itself. */}
        <form method="get" action="/admin/partners/ledger.csv" className="mt-3 flex flex-wrap items-end gap-4">
          <TextField
            id="ledger-from"
            name="from"
            label="From month"
            type="month"
            placeholder="YYYY-MM"
            pattern="[0-9]{4}-[0-9]{2}"
            required
            defaultValue={loaderData.ledgerMonth}
            error={undefined}
          />
          <TextField
            id="ledger-to"
            name="to"
            label="To month"
            type="month"
            placeholder="YYYY-MM"
            pattern="[0-9]{4}-[0-9]{2}"
            defaultValue={loaderData.ledgerMonth}
            error={undefined}
          />
          <div>
            <button type="submit" className={buttonClass}>
              Download ledger (CSV)
            </button>
          </div>
        </form>
      </ConsoleSection>

      {loaderData.unissuedStatements > 0 ? (
        <ConsoleSection id="issue-statements" heading="Last month&rsquo;s statements">
          <p className="mt-2 max-w-3xl text-slate-800">
            {loaderData.unissuedStatements === 1
              ? "One partner's statement"
              : `${loaderData.unissuedStatements} partners' statements`}{" "}
            of last month {loaderData.unissuedStatements === 1 ? "is" : "are"} not issued yet: they are issued on the
            1st at 08:00, or now.
          </p>
          <ConsoleForm name="issue-statements" className="mt-3">
            <button type="submit" className={buttonClass}>
              Issue last month&rsquo;s statements now
            </button>
          </ConsoleForm>
        </ConsoleSection>
      ) : null}

      <ConsoleSection id="default-fee" heading="Default fee">
        <ConsoleForm name="default-fee" className="mt-3 grid max-w-xl gap-4">
          <TextField
            id="default-fee"
            name="defaultFee"
            label="Default fee per referral"
            inputMode="decimal"
            autoComplete="off"
            maxLength={20}
            hint={`In ${currency}, for partners without a fee of their own; 0 charges nothing.`}
            defaultValue={loaderData.defaultFee}
            error={actionData?.defaultFeeError}
          />
          <div>
            <button type="submit" className={buttonClass}>
              Save default fee
            </button>
          </div>
        </ConsoleForm>
      </ConsoleSection>

      <ConsoleSection id="payment-instructions" heading="Payment instructions">
        <ConsoleForm name="payment-instructions" className="mt-3 grid max-w-xl gap-4">
          <div>
            <label htmlFor="payment-instructions" className="font-semibold text-slate-900">
              How partners pay
            </label>
            <textarea
              id="payment-instructions"
              name="paymentInstructions"
              rows={4}
              maxLength={1_000}
              defaultValue={loaderData.paymentInstructions}
              aria-describedby={`payment-instructions-hint${actionData?.paymentInstructionsError ? " payment-instructions-error" : ""}`}
              aria-invalid={actionData?.paymentInstructionsError ? true : undefined}
              className={fieldClass}
            />
            <p id="payment-instructions-hint" className="mt-1 text-sm text-slate-700">
              Printed under every statement and in its email: who to pay, and how (bank transfer details, a payment
              link, where to mail a check).
            </p>
            <FieldError id="payment-instructions-error" error={actionData?.paymentInstructionsError} />
          </div>
          <div>
            <button type="submit" className={buttonClass}>
              Save payment instructions
            </button>
          </div>
        </ConsoleForm>
      </ConsoleSection>

      <ConsoleSection id="routing" heading="Calls and new leads">
        <ConsoleForm name="routing" className="mt-3 grid max-w-xl gap-4">
          <div>
            <label htmlFor="route-calls" className="flex items-center gap-2 font-semibold text-slate-900">
              <input
                id="route-calls"
                type="checkbox"
                name="routeCalls"
                defaultChecked={routing.routeCalls}
                aria-describedby="route-calls-hint"
                className="size-5"
              />
              Route calls to partners
            </label>
            <p id="route-calls-hint" className="mt-1 text-sm text-slate-700">
              A call to the site's numbers rings the partners taking calls for the caller's ZIP code; off, every call
              rings your own number.
            </p>
          </div>
          <TextField
            id="default-call-fee"
            name="defaultCallFee"
            label="Default fee per call"
            inputMode="decimal"
            autoComplete="off"
            maxLength={20}
            hint={`In ${currency}, for partners without a fee per call of their own; 0 charges nothing.`}
            defaultValue={routing.defaultCallFee}
            error={actionData?.routingError}
          />
          <div>
            <label htmlFor="refer-automatically" className="flex items-center gap-2 font-semibold text-slate-900">
              <input
                id="refer-automatically"
                type="checkbox"
                name="referAutomatically"
                defaultChecked={routing.referAutomatically}
                aria-describedby="refer-automatically-hint"
                className="size-5"
              />
              Refer new leads automatically
            </label>
            <p id="refer-automatically-hint" className="mt-1 text-sm text-slate-700">
              A new lead with a ZIP code is offered at once to the available partners of the first priority, then the
              next if nobody accepts in time. Leads that opted out of sharing are never referred automatically.
            </p>
          </div>
          <div>
            <button type="submit" className={buttonClass}>
              Save routing
            </button>
          </div>
        </ConsoleForm>
      </ConsoleSection>

      <ConsoleSection id="add-partner" heading="Add a partner">
        <PartnerForm
          values={null}
          errors={actionData?.errors}
          sameEmail={actionData?.sameEmail}
          services={services}
          feeHint={feeHint}
          callFeeHint={callFeeHint}
        />
      </ConsoleSection>
    </>
  );
}
