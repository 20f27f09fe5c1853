import { useEffect } from "react";
import { data, Form, NavLink, Outlet, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/layout";
import consoleStylesheet from "./console.css?url";
import { siteConfig } from "~/config/site.ts";
import { requireOperator } from "~/server/console/index.server.ts";
import { openRequestCounts, type OpenRequestCounts } from "~/server/leads/index.server.ts";
import { openReturnCount } from "~/server/ledger/index.server.ts";
import { unreadTextCount } from "~/server/texts/index.server.ts";

// The console installs as an app of its own (its manifest is behind sign-in, hence fetched with credentials).
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: consoleStylesheet },
  { rel: "manifest", href: "/admin/manifest.webmanifest", crossOrigin: "use-credentials" },
  { rel: "apple-touch-icon", href: "/favicon.svg" },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  // The frame shows on the account page too, where an operator required to turn on two-step sign-in is sent.
  const operatorEmail = requireOperator(context, { beforeTwoStep: true }).email;
  const { consoleForms } = context.services;
  // What the last action did, said once (its cookie cleared), and the token of this page view's forms.
  const flash = consoleForms.takeFlash(request);
  const frame = {
    operatorEmail,
    said: flash?.said ?? null,
    formToken: consoleForms.pageToken(),
    ...(await Promise.all([
      openRequestCounts(context.services.db),
      openReturnCount(context.services.db),
      context.services.texts ? unreadTextCount(context.services.db) : null,
    ]).then(([counts, openReturns, unreadTexts]) => ({ counts, openReturns, unreadTexts }))),
    callTracking: context.services.calls !== undefined,
  };
  return data(frame, flash ? { headers: { "Set-Cookie": flash.setCookie } } : undefined);
}

/** The frame is loaded again on every page, so that a confirmation shows on one page only, and the counts are fresh. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === undefined || formMethod === "GET" ? true : defaultShouldRevalidate;

/**
 * The pages, and what waits on each: New leads on the inbox, open requests on the opt-outs, unread texts. Calls
 * when tracked, Texts when texting is on (`unreadTexts` is null when it is off).
 */
function navItems(counts: OpenRequestCounts, callTracking: boolean, openReturns: number, unreadTexts: number | null) {
  return [
    { to: "/admin", label: "Inbox", end: true, count: `${counts.newLeads} new` },
    ...(callTracking ? [{ to: "/admin/calls", label: "Calls", end: false, count: null }] : []),
    ...(unreadTexts === null
      ? []
      : [{ to: "/admin/texts", label: "Texts", end: false, count: unreadTexts > 0 ? `${unreadTexts} unread` : null }]),
    { to: "/admin/opt-outs", label: "Opt-outs", end: false, count: `${counts.openOptOuts} open` },
    { to: "/admin/outbox", label: "Outbox", end: false, count: null },
    { to: "/admin/partners", label: "Partners", end: false, count: null },
    { to: "/admin/returns", label: "Returns", end: false, count: `${openReturns} open` },
    { to: "/admin/dashboard", label: "Dashboard", end: false, count: null },
    { to: "/admin/conversions", label: "Conversions", end: false, count: null },
    { to: "/admin/integrations", label: "Integrations", end: false, count: null },
  ];
}

/** The console's frame: who is signed in, the pages, and "Sign out". */
export default function ConsoleLayout({ loaderData }: Route.ComponentProps) {
  useEffect(() => {
    // The console's service worker, for its alerts; scoped to /admin/, so public pages never have one.
    navigator.serviceWorker?.register("/admin/sw.js", { scope: "/admin/" }).catch(() => undefined);
  }, []);
  return (
    <>
      <header className="border-b border-slate-300 bg-slate-50">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <p className="font-bold text-slate-900">{siteConfig.companyName} console</p>
          <nav aria-label="Console">
            <ul className="flex flex-wrap gap-4">
              {navItems(loaderData.counts, loaderData.callTracking, loaderData.openReturns, loaderData.unreadTexts).map(
                (item) => (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      end={item.end}
                      className="font-semibold text-blue-800 underline-offset-2 hover:underline aria-[current=page]:underline"
                    >
                      {item.label}
                      {item.count ? (
                        <span className="ml-1.5 inline-block rounded-full bg-blue-800 px-2 text-xs leading-5 font-semibold text-white">
                          {" "}
                          {item.count}
                        </span>
                      ) : null}
                    </NavLink>
                  </li>
                ),
              )}
            </ul>
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm">
            <span className="text-slate-700">{loaderData.operatorEmail}</span>
            <NavLink
              to="/admin/account"
              className="font-semibold text-blue-800 underline-offset-2 hover:underline aria-[current=page]:underline"
            >
              Account
            </NavLink>
            <Form method="post" action="/admin/logout">
              <button type="submit" className="rounded border border-slate-400 px-3 py-1 font-semibold text-slate-800">
                Sign out
              </button>
            </Form>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        {loaderData.said ? (
          <p
            role="status"
            className="mb-4 rounded border-2 border-green-700 bg-green-50 px-4 py-3 font-semibold text-green-900"
          >
            {loaderData.said.message}
          </p>
        ) : null}
        <Outlet />
      </main>
    </>
  );
}
