import { data, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/calls";
import { countOf, listPageHref, PageLinks } from "../components/PageLinks.tsx";
import { ListQueryError, SearchForm } from "../components/SearchForm.tsx";
import { linkClass } from "../components/TableRegion.tsx";
import { CallsTable } from "../components/CallsTable.tsx";
import { SEARCH_MAX_LENGTH } from "~/lib/console-limits.ts";
import { CALL_OUTCOMES } from "~/lib/call-outcomes.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { listCalls, parseCallsQuery, poolExhaustion } from "~/server/calls/index.server.ts";
import { requireOperator } from "~/server/console/index.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Calls" }, { name: "robots", content: "noindex" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context);
  const query = parseCallsQuery(new URL(request.url).searchParams);
  if (!query) {
    throw data(`Search at most ${SEARCH_MAX_LENGTH} characters, a page link from this list, and a listed outcome.`, {
      status: 400,
    });
  }
  const trackingOn = context.services.calls !== undefined;
  const [calls, exhaustion] = await Promise.all([
    listCalls(context.services.db, query, context.operatorTimeZone, context.services.conversions.currency),
    trackingOn ? poolExhaustion(context.services.db) : null,
  ]);
  const poolUsedUp =
    exhaustion?.lastAt && exhaustion.visits > 0
      ? { visits: exhaustion.visits, lastAt: formatTime(exhaustion.lastAt, context.operatorTimeZone) }
      : null;
  return {
    ...calls,
    q: query.q,
    outcome: query.outcome,
    trackingOn,
    poolUsedUp,
    textingOn: context.services.texts !== undefined,
  };
}

/** Every call to the site's numbers, newest first, 50 a page, filtered by outcome and searched by caller digits. */
export default function Calls({ loaderData }: Route.ComponentProps) {
  const { rows, total, countLimit, q, outcome, trackingOn, poolUsedUp } = loaderData;
  const filtered = q !== "" || outcome !== "";
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">Calls</h1>
        <a href="/admin/export/calls.csv" className={linkClass}>
          Download all calls (CSV)
        </a>
      </div>
      {trackingOn ? null : (
        <p className="mt-2 text-slate-800">
          Call tracking is off: set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and CALL_FORWARD_TO (the number calls ring) to
          log calls (docs/guides/calls.md).
        </p>
      )}
      {poolUsedUp ? (
        <p className="mt-3 rounded-lg border-2 border-amber-700 bg-amber-50 p-3 text-slate-900">
          {`In the last 24 hours, ${poolUsedUp.visits.toLocaleString("en-US")} campaign ${poolUsedUp.visits === 1 ? "visit" : "visits"} found every tracking number held and saw the site’s own number (the last at ${poolUsedUp.lastAt}): their calls cannot be tied to a campaign. Add numbers to CALL_TRACKING_POOL (README, “Call tracking”).`}
        </p>
      ) : null}
      <SearchForm
        id="calls"
        label="Calls"
        search={{ label: "Caller", value: q, hint: "Search by the caller’s digits in any format.", inputMode: "tel" }}
        filter={{ name: "outcome", label: "Outcome", allLabel: "All outcomes", options: CALL_OUTCOMES, value: outcome }}
        clearTo="/admin/calls"
      />

      <p className="mt-4 text-slate-800" role="status">
        {total === 0
          ? filtered
            ? "No calls match."
            : "No calls yet."
          : `${countOf(total, countLimit, "call", "calls")}${filtered ? " match" : ""}, newest first.`}
      </p>

      {rows.length > 0 ? (
        <CallsTable label="Calls" caption="Calls, newest first" rows={rows} textingOn={loaderData.textingOn} />
      ) : null}

      <PageLinks
        label="Calls pages"
        list={loaderData}
        href={(cursor) => listPageHref("/admin/calls", { q, outcome }, cursor)}
      />
    </>
  );
}

/** A query string out of bounds (400) says what is allowed, inside the console, with a way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (!isRouteErrorResponse(error) || error.status !== 400) throw error;
  return (
    <ListQueryError
      heading="Calls"
      message={String(error.data)}
      back={{ to: "/admin/calls", label: "Show all calls" }}
    />
  );
}
