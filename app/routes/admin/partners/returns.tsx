import { data, Link } from "react-router";
import type { Route } from "./+types/returns";
import { DataTable, buttonClass, dangerButtonClass, fieldClass, linkClass } from "../components/TableRegion.tsx";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { formatTime } from "~/lib/operator-time.ts";
import { isRowId } from "~/lib/row-id.ts";
import { confirmFirst, confirmed, done, invalid, requireOperator } from "~/server/console/index.server.ts";
import { findPartner } from "~/server/partners/index.server.ts";
import { formatMinor, listReturns } from "~/server/ledger/index.server.ts";
import { postedForm } from "~/server/http/index.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Returns" }, { name: "robots", content: "noindex" }];

/** A denial's reason, emailed to the partner. */
const DENIAL_MAX_LENGTH = 500;

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  const { db } = context.services;
  const { currency } = context.services.conversions;
  const { open, decided } = await listReturns(db);
  const partnerNames = new Map<string, string>();
  for (const partnerId of new Set([...open, ...decided].map((row) => row.partnerId))) {
    partnerNames.set(partnerId, (await findPartner(db, partnerId))?.name ?? "A removed partner");
  }
  const shown = (row: (typeof open)[number]) => ({
    id: row.id,
    partnerId: row.partnerId,
    partner: partnerNames.get(row.partnerId) ?? "",
    leadId: row.leadId,
    job: [row.service, row.zip, row.jobDay].filter(Boolean).join(" · "),
    reason: row.detail ? `${row.reason}: ${row.detail}` : row.reason,
    requested: formatTime(row.requestedAt, context.operatorTimeZone),
    charge: row.chargeMinor === null ? "Not charged" : formatMinor(row.chargeMinor, currency),
    decision: row.decision === "approved" ? "Approved" : row.decision === "denied" ? `Denied: ${row.denialReason}` : "",
    decided: row.decidedAt ? `${formatTime(row.decidedAt, context.operatorTimeZone)} by ${row.decidedBy}` : "",
  });
  return { open: open.map(shown), decided: decided.map(shown) };
}

/** "Nov 30" for 2026-11-30: the job's day, as the question about its return names it. */
function jobDayName(day: string | null): string {
  if (!day) return "";
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
}

/** "Approve" (a credit equal to the charge) or "Deny" (with a reason, emailed to the partner), each asked first. */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const form = await postedForm(request);
  const id = String(form.get("id") ?? "");
  if (!isRowId(id)) throw data("No such return.", { status: 404 });
  const { db } = context.services;
  const { currency } = context.services.conversions;
  // A form sent again is answered with what the first sending did, before the return is looked for.
  return context.services.consoleForms.once(request, operator, form, async () => {
    const waiting = (await listReturns(db)).open.find((row) => row.id === id);
    if (!waiting) throw data("That return is already decided.", { status: 409 });
    const partner = (await findPartner(db, waiting.partnerId))?.name ?? "A removed partner";
    const charge = waiting.chargeMinor === null ? null : formatMinor(waiting.chargeMinor, currency);
    const job = waiting.jobDay ? ` for the job of ${jobDayName(waiting.jobDay)}` : "";
    if (form.get("intent") === "approve") {
      if (!confirmed(form)) {
        return confirmFirst(
          charge
            ? `Credit ${partner} ${charge}${job}?`
            : `Approve the return from ${partner}${job}? It was not charged.`,
          "Yes, approve",
        );
      }
      if (
        !(await context.services.referrals.decideReturn({ returnId: id, by: operator.email, decision: "approved" }))
      ) {
        throw data("That return is already decided.", { status: 409 });
      }
      return done(
        charge
          ? `Return approved: ${partner} credited ${charge} and emailed.`
          : "Return approved: the partner emailed.",
        "/admin/returns",
      );
    }
    if (form.get("intent") !== "deny") throw data("Choose Approve or Deny.", { status: 400 });
    const reason = String(form.get("reason") ?? "").trim();
    if (reason === "" || reason.length > DENIAL_MAX_LENGTH) {
      return invalid({
        id,
        error: `Say why, in at most ${DENIAL_MAX_LENGTH} characters: the partner is emailed the reason.`,
      });
    }
    if (!confirmed(form)) {
      return confirmFirst(
        `Deny the return from ${partner}${job}${charge ? ` and keep the ${charge} charge` : ""}? They are emailed your reason.`,
        "Yes, deny",
      );
    }
    const decision = { returnId: id, by: operator.email, decision: "denied" as const, reason };
    if (!(await context.services.referrals.decideReturn(decision))) {
      throw data("That return is already decided.", { status: 409 });
    }
    return done(`Return denied: ${partner} emailed your reason.`, "/admin/returns");
  });
}

/** Partners' returns of accepted leads: the open ones to decide, then the last decided. */
export default function Returns({ loaderData, actionData }: Route.ComponentProps) {
  const { open, decided } = loaderData;
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Returns</h1>
      {open.length === 0 ? (
        <p className="mt-4 text-slate-800" role="status">
          No returns wait for a decision.
        </p>
      ) : (
        <ul className="mt-4 grid gap-4" aria-label="Open returns, oldest first">
          {open.map((row) => (
            <li key={row.id} className="rounded-lg border-2 border-slate-300 p-4">
              <h2 className="text-lg font-bold text-slate-900">
                <Link to={`/admin/partners/${row.partnerId}`} className={linkClass}>
                  {row.partner}
                </Link>
              </h2>
              <dl className="mt-2 grid gap-1 text-slate-900 sm:grid-cols-[10rem_1fr]">
                <dt className="font-semibold">Job</dt>
                <dd>
                  {row.job || "—"}
                  {row.leadId ? (
                    <>
                      {" "}
                      <Link to={`/admin/leads/${row.leadId}`} className={linkClass}>
                        Open the lead<span className="sr-only"> returned by {row.partner}</span>
                      </Link>
                    </>
                  ) : null}
                </dd>
                <dt className="font-semibold">Reason</dt>
                <dd className="break-words">{row.reason}</dd>
                <dt className="font-semibold">Returned</dt>
                <dd>{row.requested}</dd>
                <dt className="font-semibold">Charged</dt>
                <dd>{row.charge}</dd>
              </dl>
              <div className="mt-3 flex flex-wrap items-end gap-4">
                <ConsoleForm name="approve" row={row.id}>
                  <input type="hidden" name="id" value={row.id} />
                  <button type="submit" className={buttonClass} aria-label={`Approve the return from ${row.partner}`}>
                    Approve
                  </button>
                </ConsoleForm>
                <ConsoleForm name="deny" row={row.id} destructive className="grid flex-1 gap-2">
                  <input type="hidden" name="id" value={row.id} />
                  <label htmlFor={`deny-${row.id}`} className="font-semibold text-slate-900">
                    Reason for denying
                  </label>
                  <input
                    id={`deny-${row.id}`}
                    name="reason"
                    maxLength={500}
                    autoComplete="off"
                    aria-invalid={actionData?.id === row.id ? true : undefined}
                    aria-describedby={actionData?.id === row.id ? `deny-${row.id}-error` : undefined}
                    className={fieldClass}
                  />
                  {actionData?.id === row.id ? (
                    <p id={`deny-${row.id}-error`} role="alert" className="font-semibold text-red-800">
                      {actionData.error}
                    </p>
                  ) : null}
                  <div>
                    <button
                      type="submit"
                      className={dangerButtonClass}
                      aria-label={`Deny the return from ${row.partner}`}
                    >
                      Deny
                    </button>
                  </div>
                </ConsoleForm>
              </div>
            </li>
          ))}
        </ul>
      )}
      {decided.length > 0 ? (
        <DataTable
          label="Decided returns"
          caption="Decided returns: the last 50, newest first"
          headings={["Partner", "Job", "Reason", "Charged", "Decision", "Decided"]}
        >
          {decided.map((row) => (
            <tr key={row.id}>
              <th scope="row" className="font-normal">
                {row.partner}
              </th>
              <td>
                {row.leadId ? (
                  <Link to={`/admin/leads/${row.leadId}`} className={linkClass}>
                    {row.job || "The lead"}
                  </Link>
                ) : (
                  row.job
                )}
              </td>
              <td>{row.reason}</td>
              <td className="whitespace-nowrap">{row.charge}</td>
              <td>{row.decision}</td>
              <td>{row.decided}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </>
  );
}
