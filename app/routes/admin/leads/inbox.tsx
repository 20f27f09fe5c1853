import { data, isRouteErrorResponse, Link } from "react-router";
import type { Route } from "./+types/inbox";
import { countOf, listPageHref, PageLinks } from "../components/PageLinks.tsx";
import { ListQueryError, SearchForm } from "../components/SearchForm.tsx";
import { DataTable, linkClass, buttonClass } from "../components/TableRegion.tsx";
import { StatusText } from "./StatusText.tsx";
import { GettingStarted } from "./GettingStarted.tsx";
import { gettingStarted } from "./getting-started.server.ts";
import { telHref } from "../components/links.ts";
import { SEARCH_MAX_LENGTH } from "~/lib/console-limits.ts";
import { LEAD_STATUSES } from "~/lib/lead-status.ts";
import { listInbox, parseInboxQuery } from "~/server/leads/index.server.ts";
import { requireOperator } from "~/server/console/index.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Inbox" }, { name: "robots", content: "noindex" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context);
  const query = parseInboxQuery(new URL(request.url).searchParams);
  if (!query) {
    throw data(`Search at most ${SEARCH_MAX_LENGTH} characters, a page link from this list, and a listed status.`, {
      status: 400,
    });
  }
  const inbox = await listInbox(context.services.db, query, context.operatorTimeZone);
  // Until the first lead, the inbox is a new install's checklist; once leads come, the inbox is theirs alone.
  const noLeadsYet = inbox.total === 0 && query.q === "" && query.status === "";
  return {
    ...inbox,
    q: query.q,
    status: query.status,
    gettingStarted: noLeadsYet ? await gettingStarted(context.services, context.operatorTimeZone) : null,
  };
}

/** Contact requests, newest first, 50 a page, with search and a status filter that work without JavaScript. */
export default function Inbox({ loaderData }: Route.ComponentProps) {
  const { rows, total, countLimit, q, status, gettingStarted: steps } = loaderData;
  const filtered = q !== "" || status !== "";
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">Inbox</h1>
        <a href="/admin/export/leads.csv" className={linkClass}>
          Download all leads (CSV)
        </a>
      </div>
      <SearchForm
        id="inbox"
        label="Contact requests"
        search={{ label: "Search", value: q, hint: "Search by name, email, or phone digits in any format." }}
        filter={{ name: "status", label: "Status", allLabel: "All statuses", options: LEAD_STATUSES, value: status }}
        clearTo="/admin"
      />

      <p className="mt-4 text-slate-800" role="status">
        {total === 0
          ? filtered
            ? "No contact requests match."
            : "No contact requests yet."
          : `${countOf(total, countLimit, "contact request", "contact requests")}${filtered ? " match" : ""}, newest first.`}
      </p>
      {steps ? <GettingStarted state={steps} /> : null}

      {rows.length > 0 ? (
        // On a phone, one card per lead; from 640 px, the table.
        <ul aria-label="Contact requests" className="mt-3 grid gap-3 sm:hidden">
          {rows.map((row) => (
            <li key={row.id} className="rounded border border-slate-300 p-3">
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <Link to={`/admin/leads/${row.id}`} className={`${linkClass} break-words`}>
                    {row.name}
                  </Link>
                  <p className="mt-1 break-words text-slate-900">{row.service}</p>
                  <p className="mt-1 text-sm text-slate-800">
                    {row.receivedAgo} · <StatusText status={row.status} />
                  </p>
                </div>
                <a href={telHref(row.phone)} className={buttonClass} aria-label={`Call ${row.name}`}>
                  Call
                </a>
              </div>
            </li>
          ))}
        </ul>
      ) : null}

      {rows.length > 0 ? (
        <div className="hidden sm:block">
          <DataTable
            label="Contact requests"
            caption="Contact requests, newest first"
            headings={[
              "Received",
              "Name",
              "Phone",
              "Email",
              "Service",
              "Status",
              <abbr key="gpc" title="Global Privacy Control: do not sell or share">
                GPC
              </abbr>,
            ]}
          >
            {rows.map((row) => (
              <tr key={row.id}>
                <td className="whitespace-nowrap">{row.receivedAt}</td>
                <th scope="row" className="font-normal">
                  <Link to={`/admin/leads/${row.id}`} className={linkClass}>
                    {row.name}
                  </Link>
                </th>
                <td className="whitespace-nowrap">
                  <a href={telHref(row.phone)} className={linkClass}>
                    {row.phone}
                  </a>
                </td>
                <td>
                  <a href={`mailto:${row.email}`} className={`${linkClass} break-all`}>
                    {row.email}
                  </a>
                </td>
                <td>{row.service}</td>
                <td>
                  <StatusText status={row.status} />
                </td>
                <td>{row.globalPrivacyControl ? "Yes: do not sell or share" : "No"}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      ) : null}

      <PageLinks
        label="Inbox pages"
        list={loaderData}
        href={(cursor) => listPageHref("/admin", { q, status }, cursor)}
      />
    </>
  );
}

/** A query string out of bounds (400) says what is allowed, inside the console, with a way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (!isRouteErrorResponse(error) || error.status !== 400) throw error;
  return (
    <ListQueryError
      heading="Inbox"
      message={String(error.data)}
      back={{ to: "/admin", label: "Show the whole inbox" }}
    />
  );
}
