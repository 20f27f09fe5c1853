import { data, Link } from "react-router";
import type { Route } from "./+types/text-thread";
import { TextThread } from "../components/TextThread.tsx";
import { linkClass } from "../components/TableRegion.tsx";
import { telHref } from "../components/links.ts";
import { done, invalid, requireOperator } from "~/server/console/index.server.ts";
import { newestLeadByPhone } from "~/server/leads/index.server.ts";
import {
  customerThread,
  markThreadRead,
  OPTED_OUT_ERROR,
  QUIET_HOURS_LABEL,
  threadPath,
} from "~/server/texts/index.server.ts";
import { postedForm } from "~/server/http/index.server.ts";

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: loaded ? `Texts with ${loaded.lead?.name ?? loaded.thread.customer}` : "Texts" },
  { name: "robots", content: "noindex" },
];

/** The customer's number from the path (its digits, E.164 without the +); 404 for anything else or texting off. */
function customerOf(context: Route.LoaderArgs["context"], digits: string): string {
  if (!context.services.texts || !/^[1-9]\d{6,14}$/.test(digits)) throw data(null, { status: 404 });
  return `+${digits}`;
}

export async function loader({ context, params }: Route.LoaderArgs) {
  requireOperator(context);
  const customer = customerOf(context, params.number);
  const { db } = context.services;
  const [thread, leads] = await Promise.all([
    customerThread(db, customer, context.operatorTimeZone),
    newestLeadByPhone(db, [customer]),
  ]);
  // Opening the thread reads the customer's texts.
  await markThreadRead(db, customer);
  return { thread, lead: [...leads.values()][0] ?? null, path: threadPath(customer) };
}

/** Where a sent text returns to: the lead's page it was sent from, or this thread. */
function returnPath(back: FormDataEntryValue | null, thread: string): string {
  return typeof back === "string" && /^\/admin\/leads\/[0-9a-f-]{36}$/.test(back) ? back : thread;
}

/**
 * "Send text": queued, then back (POST, then redirect); 400 for an empty or long message; 409 when the number
 * replied STOP, or in quiet hours until the operator confirms.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const customer = customerOf(context, params.number);
  const form = await postedForm(request);
  const body = form.get("body");
  const typed = typeof body === "string" ? body.slice(0, 2_000) : "";
  return context.services.consoleForms.once(request, operator, form, async () => {
    const sent = await context.services.texts!.send({
      customer,
      body,
      confirmedQuietHours: form.get("confirmQuietHours") === "yes",
    });
    switch (sent.kind) {
      case "queued": {
        const lead = [...(await newestLeadByPhone(context.services.db, [customer])).values()][0];
        return done(
          `Text sent to ${lead ? `${lead.name} (${customer})` : customer}.`,
          returnPath(form.get("back"), threadPath(customer)),
        );
      }
      case "invalid":
        return invalid({ error: sent.error, body: typed, quietHours: undefined });
      case "opted-out":
        return invalid(
          {
            error: OPTED_OUT_ERROR,
            body: typed,
            quietHours: undefined,
          },
          409,
        );
      case "quiet-hours":
        return invalid({ error: undefined, quietHours: { label: QUIET_HOURS_LABEL }, body: typed }, 409);
    }
  });
}

/** One customer's texts, with the composer. */
export default function TextThreadPage({ loaderData, actionData }: Route.ComponentProps) {
  const { thread, lead, path } = loaderData;
  return (
    <>
      <p>
        <Link to="/admin/texts" className={linkClass}>
          All texts
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold text-slate-900">
        Texts with {lead ? `${lead.name} (${thread.customer})` : thread.customer}
      </h1>
      <p className="mt-1 flex flex-wrap gap-4">
        <a href={telHref(thread.customer)} className={linkClass}>
          Call {thread.customer}
        </a>
        {lead ? (
          <Link to={`/admin/leads/${lead.id}`} className={linkClass}>
            {lead.name}&apos;s lead
          </Link>
        ) : null}
      </p>
      <section aria-label="Thread" className="mt-4">
        <TextThread thread={thread} action={path} back={path} answer={actionData} />
      </section>
    </>
  );
}
