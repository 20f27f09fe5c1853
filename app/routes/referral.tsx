import { data, Form } from "react-router";
import { ReturnReasonForm } from "~/components/forms/ReturnReasonForm.tsx";
import type { Route } from "./+types/referral";
import { DetailRows } from "~/components/DetailRows.tsx";
import { siteConfig } from "~/config/site.ts";
import { signedLinkHeaders, signedLinkMeta } from "~/lib/signed-link-page.ts";
import { postedForm } from "~/server/http/index.server.ts";
import { clientKey } from "~/server/limits/index.server.ts";
import type { ReferralPage } from "~/server/partners/index.server.ts";

/**
 * A partner's link to one referral (/r/<token>): the job with "Accept" and "Decline", plain forms that work
 * without JavaScript. The first partner to accept gets the visitor's contact details here and by email.
 */

export const meta: Route.MetaFunction = () => signedLinkMeta(`Job offer | ${siteConfig.companyName}`);

export const headers: Route.HeadersFunction = signedLinkHeaders;

function statusOf(page: ReferralPage): number {
  switch (page.kind) {
    case "not-found":
      return 404;
    case "taken":
    case "used":
    case "expired":
    case "withdrawn":
      return 410;
    case "over-limit":
      return 409;
    case "rate-limited":
      return 429;
    default:
      return 200;
  }
}

function respond(page: ReferralPage) {
  const refused = page.kind === "accepted" && page.leadReturn.state === "offered" && page.leadReturn.error;
  return data(page, {
    status: refused ? 400 : statusOf(page),
    headers: page.kind === "rate-limited" ? { "Retry-After": String(page.retryAfterSeconds) } : undefined,
  });
}

export async function loader({ context, params }: Route.LoaderArgs) {
  return respond(await context.services.referrals.page(params.token, clientKey(context.clientIp)));
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const form = await postedForm(request);
  const intent = form.get("intent");
  if (intent === "return") {
    return respond(await context.services.referrals.returnLead(params.token, clientKey(context.clientIp), form));
  }
  if (intent !== "accept" && intent !== "decline") throw data("Choose Accept or Decline.", { status: 400 });
  const answer = intent === "accept" ? "accepted" : "declined";
  return respond(await context.services.referrals.answer(params.token, clientKey(context.clientIp), answer));
}

const CLOSED: Record<string, { heading: string; text: string }> = {
  taken: {
    heading: "This job has already been taken.",
    text: "Another partner accepted it first. Thank you for answering.",
  },
  used: { heading: "This link has already been used.", text: "Each link answers one job once." },
  expired: { heading: "This link has expired.", text: "The job was offered for a limited time, which has passed." },
  withdrawn: {
    heading: "This job has been withdrawn.",
    text: "The customer has asked us not to share their details. Thank you for your time.",
  },
  "not-found": { heading: "This link is not valid.", text: "Check that you opened the whole link from the message." },
  "rate-limited": { heading: "Too many requests.", text: "Please wait a few minutes, then open the link again." },
  declined: { heading: "You declined this job.", text: "Thank you for letting us know quickly." },
  "over-limit": {
    heading: "This job cannot be accepted on your account yet.",
    text: "Your balance with us has reached its limit. Please contact us to settle it; until the link expires, you can then accept the job here.",
  },
};

/** "Return this lead" while the partner may, or where their return stands. */
function LeadReturn({ state }: { state: Extract<ReferralPage, { kind: "accepted" }>["leadReturn"] }) {
  if (state.state === "none") return null;
  return (
    <section aria-labelledby="return-heading" className="mt-8 border-t-2 border-slate-200 pt-6">
      <h2 id="return-heading" className="text-2xl font-bold text-slate-900">
        Return this lead
      </h2>
      {state.state === "offered" ? (
        <ReturnReasonForm
          id="return"
          error={state.error}
          intent="return"
          intro={`If the lead was not a real job for you, return it by ${state.until} and we will review it for a credit of its fee.`}
          submitLabel="Send return"
          className="mt-3"
        />
      ) : (
        <p role="status" className="mt-3 text-slate-800">
          {state.state === "sent"
            ? `You returned this lead (${state.reason}). We will email you our decision.`
            : state.state === "approved"
              ? "Your return was approved: the fee was credited to your account."
              : `Your return was not approved: ${state.reason}`}
        </p>
      )}
    </section>
  );
}

const buttonClass =
  "rounded-lg px-5 py-3 text-lg font-bold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700";

export default function Referral({ loaderData, actionData }: Route.ComponentProps) {
  const page = actionData ?? loaderData;
  return (
    <section className="mx-auto max-w-xl px-4 py-10" aria-labelledby="referral-heading">
      {page.kind === "open" ? (
        <>
          <h1 id="referral-heading" className="text-3xl font-bold text-slate-900">
            A job for you, {page.partnerName}
          </h1>
          <p className="mt-3 text-slate-800">
            The first partner to accept gets the customer&apos;s name, phone and email.
          </p>
          <DetailRows rows={page.job} />
          <p className="mt-4 text-lg font-bold text-slate-900">{page.fee}</p>
          <Form method="post" className="mt-6 flex flex-wrap gap-4">
            <button type="submit" name="intent" value="accept" className={`${buttonClass} bg-brand-700 text-white`}>
              Accept
            </button>
            <button
              type="submit"
              name="intent"
              value="decline"
              className={`${buttonClass} border-2 border-slate-700 bg-white text-slate-900`}
            >
              Decline
            </button>
          </Form>
        </>
      ) : page.kind === "accepted" ? (
        <>
          <h1 id="referral-heading" className="text-3xl font-bold text-slate-900">
            The job is yours
          </h1>
          {page.contactWithdrawn ? (
            <p className="mt-3 text-slate-800">
              The customer has since asked us not to share their personal information, so their name, phone and email
              are no longer shown here. Please do not use or share the contact details we sent before.
            </p>
          ) : (
            <p className="mt-3 text-slate-800">
              Please call the customer as soon as you can. We also sent these details by email.
            </p>
          )}
          <DetailRows rows={[...page.contact, ...page.job.filter(([label]) => label !== "First name")]} />
          {page.charged ? (
            <p className="mt-4 text-lg font-bold text-slate-900">
              Charged: {page.charged}, on your next monthly statement.
            </p>
          ) : null}
          <LeadReturn state={page.leadReturn} />
        </>
      ) : (
        <>
          <h1 id="referral-heading" className="text-3xl font-bold text-slate-900">
            {CLOSED[page.kind]!.heading}
          </h1>
          <p className="mt-3 text-slate-800">{CLOSED[page.kind]!.text}</p>
        </>
      )}
    </section>
  );
}
