import { data, Link } from "react-router";
import type { Route } from "./+types/partner";
import { DataTable, buttonClass, dangerButtonClass, linkClass } from "../components/TableRegion.tsx";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { TextField } from "../components/FormField.tsx";
import { PartnerForm } from "./PartnerForm.tsx";
import { PARTNER_SERVICES } from "~/content/partner-services.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { confirmFirst, confirmed, done, invalid, requireOperator } from "~/server/console/index.server.ts";
import {
  activePartnerWithEmail,
  editPartner,
  findPartner,
  routingSettings,
  setPartnerActive,
  setPartnerPaused,
  validatePartner,
} from "~/server/partners/index.server.ts";
import { callFeeHint } from "./partner-hints.server.ts";
import { partnerCallStats } from "~/server/calls/index.server.ts";
import { postedForm } from "~/server/http/index.server.ts";
import {
  BALANCE_LIMIT_MINOR,
  defaultFee,
  formatMinor,
  minorToDecimal,
  listStatements,
  partnerLedger,
  recordAdjustment,
  recordPayment,
  samePaymentOn,
  validateLedgerForm,
} from "~/server/ledger/index.server.ts";
import { ConsoleSection } from "../components/ConsoleSection.tsx";

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: loaded ? `Partner: ${loaded.partner.name}` : "Partner" },
  { name: "robots", content: "noindex" },
];

/** A balance as the partner reads it: "$45.50 owed by the partner", "$20.00 in the partner's favour", "$0.00". */
function balanceWords(minor: number, currency: string): string {
  if (minor === 0) return formatMinor(0, currency);
  return minor > 0
    ? `${formatMinor(minor, currency)} owed by the partner`
    : `${formatMinor(-minor, currency)} in the partner's favour`;
}

const KIND_LABELS = { charge: "Charge", credit: "Credit", payment: "Payment", adjustment: "Adjustment" } as const;

export async function loader({ context, params }: Route.LoaderArgs) {
  requireOperator(context);
  const { db } = context.services;
  const { currency } = context.services.conversions;
  const partner = await findPartner(db, params.id);
  if (!partner) throw data(null, { status: 404 });
  const [ledger, fee, statements, routing, calls] = await Promise.all([
    partnerLedger(db, partner.id),
    defaultFee(db),
    listStatements(db, partner.id),
    routingSettings(db),
    partnerCallStats(db, partner.id),
  ]);
  let sum = 0;
  const runningBalances = ledger.entries.map((entry) => (sum += entry.amountMinor));
  return {
    partner: {
      ...partner,
      fee: partner.feeMinor === null ? "" : minorToDecimal(partner.feeMinor, currency),
      serviceFees: Object.fromEntries(
        Object.entries(partner.serviceFees).map(([service, minor]) => [service, minorToDecimal(minor, currency)]),
      ),
      callFee: partner.callFeeMinor === null ? "" : minorToDecimal(partner.callFeeMinor, currency),
      callsPerDay: partner.callsPerDay === null ? "" : String(partner.callsPerDay),
      pausedSince: partner.pausedAt && formatTime(partner.pausedAt, context.operatorTimeZone),
    },
    callFeeHint: callFeeHint(routing.defaultCallFeeMinor, currency),
    services: PARTNER_SERVICES,
    feeHint: `In ${currency}, charged when the partner accepts a referral. Blank: the default fee (${formatMinor(fee, currency)}).`,
    currency,
    calls,
    balance: balanceWords(ledger.balanceMinor, currency),
    statements: statements.map((statement) => ({
      id: statement.id,
      number: statement.number,
      month: new Date(`${statement.period}-01T00:00:00Z`).toLocaleDateString("en-US", {
        month: "long",
        year: "numeric",
        timeZone: "UTC",
      }),
      issued: formatTime(statement.issuedAt, context.operatorTimeZone),
      closing: formatMinor(statement.closingMinor, currency),
    })),
    entries: ledger.entries.map((entry, index) => ({
      id: entry.id,
      kind: KIND_LABELS[entry.kind],
      amount: formatMinor(entry.amountMinor, currency),
      balance: balanceWords(runningBalances[index]!, currency),
      recorded: formatTime(entry.recordedAt, context.operatorTimeZone),
      details: [
        entry.service,
        entry.zip,
        entry.occurredOn,
        entry.method,
        entry.reference,
        entry.note,
        entry.recordedBy ? `by ${entry.recordedBy}` : null,
      ]
        .filter(Boolean)
        .join(" · "),
    })),
  };
}

type LedgerFormErrors = Extract<ReturnType<typeof validateLedgerForm>, { ok: false }>["errors"];

/**
 * "Save partner", "Pause" or "Resume", "Deactivate" (asked first) or "Activate again"; "Record payment" (asked first
 * when the same payment is already recorded) and "Record adjustment" (asked first); each said on this page, or the
 * form's errors.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const form = await postedForm(request);
  const intent = form.get("intent");
  const { db } = context.services;
  const { currency } = context.services.conversions;
  const partner = await findPartner(db, params.id);
  if (!partner) throw data(null, { status: 404 });
  const here = `/admin/partners/${partner.id}`;
  const noErrors = { errors: undefined, sameEmail: undefined, ledgerErrors: undefined };
  return context.services.consoleForms.once(request, operator, form, async () => {
    if (intent === "pause" || intent === "resume") {
      await setPartnerPaused(db, partner.id, intent === "pause");
      return done(
        intent === "pause" ? `${partner.name} paused: offered no calls or referrals.` : `${partner.name} resumed.`,
        here,
      );
    }
    if (intent === "deactivate") {
      if (!confirmed(form)) {
        return confirmFirst(`Deactivate ${partner.name}? They will be offered no new referrals.`, "Yes, deactivate");
      }
      await setPartnerActive(db, partner.id, false);
      return done(`${partner.name} deactivated: offered no new referrals.`, here);
    }
    if (intent === "activate") {
      await setPartnerActive(db, partner.id, true);
      return done(`${partner.name} is active again.`, here);
    }
    if (intent === "payment" || intent === "adjustment") {
      const checked = validateLedgerForm(intent, form, currency);
      if (!checked.ok) return invalid({ ...noErrors, ledgerErrors: { [intent]: checked.errors } });
      const amount = formatMinor(checked.entry.amountMinor, currency);
      const overLimit = () => {
        const limit = formatMinor(BALANCE_LIMIT_MINOR, currency);
        const errors: LedgerFormErrors = {
          amount: `This would take the partner's balance past ${limit} either way, the most a balance may be. Nothing was recorded.`,
        };
        return invalid({ ...noErrors, ledgerErrors: { [intent]: errors } });
      };
      if (checked.entry.kind === "payment") {
        const payment = { partnerId: partner.id, by: operator.email, ...checked.entry };
        const earlier = confirmed(form) ? null : await samePaymentOn(db, payment);
        if (earlier !== null) {
          const reference = payment.reference ? ` with reference ${payment.reference}` : " with no reference";
          return confirmFirst(
            `Already recorded: a payment of ${amount} from ${partner.name}${reference}${earlier ? `, dated ${earlier}` : ""}. Record a second one?`,
            "Yes, record a second payment",
          );
        }
        if ((await recordPayment(db, payment)) === "over-limit") return overLimit();
        return done(`Payment of ${amount} from ${partner.name} recorded.`, here);
      }
      const adjustment = checked.entry;
      if (!confirmed(form)) {
        const change =
          adjustment.amountMinor < 0
            ? `Take ${formatMinor(-adjustment.amountMinor, currency)} off what ${partner.name} owes`
            : `Add ${amount} to what ${partner.name} owes`;
        return confirmFirst(
          `${change}, dated ${adjustment.date}? An adjustment cannot be removed.`,
          "Yes, record adjustment",
        );
      }
      if ((await recordAdjustment(db, { partnerId: partner.id, by: operator.email, ...adjustment })) === "over-limit") {
        return overLimit();
      }
      return done(`Adjustment of ${amount} recorded.`, here);
    }
    if (intent !== "save") throw data(null, { status: 400 });
    const result = validatePartner(form, currency);
    if (!result.success) return invalid({ ...noErrors, errors: result.errors });
    const sameEmail = await activePartnerWithEmail(db, result.partner.email, partner.id);
    if (sameEmail)
      return invalid({ ...noErrors, errors: { email: "Another active partner has this email." }, sameEmail });
    await editPartner(db, partner.id, result.partner);
    return done(`${result.partner.name} saved.`, here);
  });
}

/** One partner: what they owe and every entry of it, a payment or adjustment to record, and their details. */
export default function Partner({ loaderData, actionData }: Route.ComponentProps) {
  const { partner, services, feeHint, callFeeHint, currency, balance, entries, statements, calls } = loaderData;
  const payment = actionData?.ledgerErrors?.payment;
  const adjustment = actionData?.ledgerErrors?.adjustment;
  return (
    <>
      <p>
        <Link to="/admin/partners" className={linkClass}>
          Back to the partners
        </Link>
      </p>
      <h1 className="mt-3 text-2xl font-bold text-slate-900">{partner.name}</h1>
      <p className="mt-1 text-slate-800">
        {!partner.active
          ? "Deactivated: not offered new referrals."
          : partner.pausedSince
            ? `Paused since ${partner.pausedSince}: no calls and no referral offers until resumed.`
            : `Active: offered in the Refer section of leads${partner.takesCalls ? ", and sent calls" : ""}.`}
      </p>
      {partner.active ? (
        <ConsoleForm name={partner.pausedSince ? "resume" : "pause"} className="mt-3">
          <button type="submit" className={buttonClass}>
            {partner.pausedSince ? "Resume" : "Pause"}
          </button>
        </ConsoleForm>
      ) : null}

      {calls.offered > 0 ? (
        <ConsoleSection id="calls" heading="Calls" className="mt-6">
          <dl className="mt-2 grid grid-cols-[10rem_1fr] gap-1 text-slate-900">
            <dt className="font-semibold">Offered</dt>
            <dd>{calls.offered}</dd>
            <dt className="font-semibold">Taken</dt>
            <dd>{calls.taken}</dd>
            <dt className="font-semibold">Billed</dt>
            <dd>{calls.billed}</dd>
            <dt className="font-semibold">Answer rate</dt>
            <dd>{calls.answerRatePercent}%</dd>
          </dl>
          <p className="mt-1 text-slate-700">
            Each call&apos;s route is on the{" "}
            <Link to="/admin/calls" className={linkClass}>
              Calls page
            </Link>
            .
          </p>
        </ConsoleSection>
      ) : null}

      <ConsoleSection id="ledger" heading="Balance" className="mt-6">
        <p className="mt-1 text-lg text-slate-900">
          {balance}{" "}
          <span className="text-base text-slate-700">(charges and adjustments less credits and payments)</span>
        </p>
        {entries.length === 0 ? (
          <p className="mt-3 text-slate-800">No entries yet.</p>
        ) : (
          <DataTable
            label="Ledger"
            caption="Ledger: every entry, oldest first"
            headings={["Recorded", "Entry", "Amount", "Balance", "Details"]}
          >
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className="whitespace-nowrap">{entry.recorded}</td>
                <th scope="row" className="font-normal">
                  {entry.kind}
                </th>
                <td className="whitespace-nowrap">{entry.amount}</td>
                <td>{entry.balance}</td>
                <td>{entry.details}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </ConsoleSection>

      <ConsoleSection id="statements" heading="Statements">
        <p className="mt-2">
          <Link to={`/admin/partners/${partner.id}/statement-preview`} className={linkClass}>
            Preview statement
          </Link>{" "}
          <span className="text-slate-800">(this month so far, as it would be issued today)</span>
        </p>
        {statements.length === 0 ? (
          <p className="mt-2 text-slate-800">
            None yet: on the 1st of each month at 08:00, a partner with entries in the month before gets one by email.
          </p>
        ) : (
          <DataTable
            label="Statements"
            caption="Statements: one a month, newest first"
            headings={["Statement", "Month", "Issued", "Closing balance", "Download"]}
          >
            {statements.map((statement) => (
              <tr key={statement.id}>
                <th scope="row" className="font-normal">
                  {statement.number}
                </th>
                <td className="whitespace-nowrap">{statement.month}</td>
                <td className="whitespace-nowrap">{statement.issued}</td>
                <td className="whitespace-nowrap">{statement.closing}</td>
                <td>
                  <a
                    href={`/admin/partners/${partner.id}/statements/${statement.id}.csv`}
                    className={linkClass}
                    download
                  >
                    Download statement (CSV)<span className="sr-only">, statement {statement.number}</span>
                  </a>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </ConsoleSection>

      <ConsoleSection id="payment" heading="Record payment">
        <ConsoleForm name="payment" className="mt-3 grid max-w-xl gap-4">
          <TextField
            id="payment-amount"
            name="amount"
            required
            label="Amount"
            inputMode="decimal"
            autoComplete="off"
            maxLength={20}
            hint={`In ${currency}, as received.`}
            error={payment?.amount}
          />
          <TextField id="payment-date" name="date" required label="Date" type="date" error={payment?.date} />
          <TextField
            id="payment-method"
            name="method"
            required
            label="Method"
            autoComplete="off"
            maxLength={60}
            hint="Check, bank transfer, card…"
            error={payment?.method}
          />
          <TextField
            id="payment-reference"
            name="reference"
            label="Reference"
            autoComplete="off"
            maxLength={120}
            hint="Optional: a check number or transfer reference."
            error={payment?.reference}
          />
          <div>
            <button type="submit" className={buttonClass}>
              Record payment
            </button>
          </div>
        </ConsoleForm>
      </ConsoleSection>

      <ConsoleSection id="adjustment" heading="Record adjustment">
        <ConsoleForm name="adjustment" className="mt-3 grid max-w-xl gap-4">
          <TextField
            id="adjustment-amount"
            name="amount"
            required
            label="Amount"
            autoComplete="off"
            maxLength={21}
            hint={`In ${currency}: positive adds to what the partner owes, negative (with a minus sign) takes off.`}
            error={adjustment?.amount}
          />
          <TextField id="adjustment-date" name="date" required label="Date" type="date" error={adjustment?.date} />
          <TextField
            id="adjustment-note"
            name="note"
            required
            label="Internal note"
            autoComplete="off"
            maxLength={300}
            hint="Why: it is kept with the entry, for the console only (never on the partner's statement)."
            error={adjustment?.note}
          />
          <TextField
            id="adjustment-partner-note"
            name="partnerNote"
            label="Note for the partner (optional)"
            autoComplete="off"
            maxLength={300}
            hint="Printed beside the adjustment on the partner's statement."
            error={adjustment?.partnerNote}
          />
          <div>
            <button type="submit" className={buttonClass}>
              Record adjustment
            </button>
          </div>
        </ConsoleForm>
      </ConsoleSection>

      <ConsoleSection id="details" heading="Details">
        <PartnerForm
          values={partner}
          errors={actionData?.errors}
          sameEmail={actionData?.sameEmail}
          services={services}
          feeHint={feeHint}
          callFeeHint={callFeeHint}
        />
        {partner.active ? (
          <ConsoleForm name="deactivate" destructive className="mt-6">
            <button type="submit" className={dangerButtonClass}>
              Deactivate
            </button>
          </ConsoleForm>
        ) : (
          <ConsoleForm name="activate" className="mt-6">
            <button type="submit" className={buttonClass}>
              Activate again
            </button>
          </ConsoleForm>
        )}
      </ConsoleSection>
    </>
  );
}
