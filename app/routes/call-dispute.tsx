import { data } from "react-router";
import { ReturnReasonForm } from "~/components/forms/ReturnReasonForm.tsx";
import type { Route } from "./+types/call-dispute";
import { DetailRows } from "~/components/DetailRows.tsx";
import { siteConfig } from "~/config/site.ts";
import { signedLinkHeaders, signedLinkMeta } from "~/lib/signed-link-page.ts";
import { postedForm } from "~/server/http/index.server.ts";
import type { CallDisputePage } from "~/server/calls/index.server.ts";

/**
 * A partner's link to dispute a call they were charged for (/d/<token>): the call, and "Send dispute" with a
 * reason, a plain form that works without JavaScript. The operator decides it on the Returns page.
 */

export const meta: Route.MetaFunction = () => signedLinkMeta(`Dispute a call | ${siteConfig.companyName}`);

export const headers: Route.HeadersFunction = signedLinkHeaders;

function respond(page: CallDisputePage) {
  if (page.kind === "not-found") throw data("This link is not valid.", { status: 404 });
  return data(page, { status: page.dispute.state === "open" && page.dispute.error ? 400 : 200 });
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const disputes = context.services.calls?.disputes;
  if (!disputes) throw data("This link is not valid.", { status: 404 });
  return respond(await disputes.page(params.token));
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const disputes = context.services.calls?.disputes;
  if (!disputes) throw data("This link is not valid.", { status: 404 });
  return respond(await disputes.dispute(params.token, await postedForm(request)));
}

export default function CallDispute({ loaderData, actionData }: Route.ComponentProps) {
  const { call, dispute } = actionData ?? loaderData;
  const rows: [string, string][] = [
    ["When", call.when],
    ["Caller", call.caller],
    ["Duration", call.duration],
    ...(call.service ? [["Service", call.service] as [string, string]] : []),
    ...(call.zip ? [["ZIP code", call.zip] as [string, string]] : []),
    ["Charge", call.charge],
  ];
  return (
    <section className="mx-auto max-w-xl px-4 py-10" aria-labelledby="dispute-heading">
      <h1 id="dispute-heading" className="text-3xl font-bold text-slate-900">
        Dispute this call
      </h1>
      <DetailRows rows={rows} />
      {dispute.state === "open" ? (
        <ReturnReasonForm
          id="dispute"
          error={dispute.error}
          intro="If this call was not a real job for you, tell us why and we will review it."
          submitLabel="Send dispute"
          className="mt-6"
        />
      ) : (
        <p role="status" className="mt-6 text-slate-800">
          {dispute.state === "window-closed"
            ? "The time to dispute this call has passed."
            : dispute.state === "sent"
              ? `You disputed this call (${dispute.reason}). We will email you our decision.`
              : dispute.state === "approved"
                ? "Your dispute was approved: the charge was credited to your account."
                : `Your dispute was not approved${dispute.denialReason ? `: ${dispute.denialReason}` : "."}`}
        </p>
      )}
    </section>
  );
}
