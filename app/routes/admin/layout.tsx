import { Form, NavLink, Outlet } from "react-router";
import type { Route } from "./+types/layout";
import consoleStylesheet from "./console.css?url";
import { siteConfig } from "~/config/site.ts";
import { navCounts, type NavCounts } from "~/server/console/nav-counts.server.ts";
import { requireOperator } from "~/server/console/operator.server.ts";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: consoleStylesheet }];

export async function loader({ context }: Route.LoaderArgs) {
  const operatorEmail = requireOperator(context).email;
  return { operatorEmail, counts: await navCounts(context.services.db) };
}

/** The pages, and what waits on each: New leads on the inbox, open requests on the opt-outs. */
function navItems(counts: NavCounts) {
  return [
    { to: "/admin", label: "Inbox", end: true, count: `${counts.newLeads} new` },
    { to: "/admin/opt-outs", label: "Opt-outs", end: false, count: `${counts.openOptOuts} open` },
    { to: "/admin/outbox", label: "Outbox", end: false, count: null },
    { to: "/admin/dashboard", label: "Dashboard", end: false, count: null },
    { to: "/admin/conversions", label: "Conversions", end: false, count: null },
  ];
}

/** The console's frame: who is signed in, the pages, and "Sign out". */
export default function ConsoleLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <header className="border-b border-slate-300 bg-slate-50">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <p className="font-bold text-slate-900">{siteConfig.companyName} console</p>
          <nav aria-label="Console">
            <ul className="flex flex-wrap gap-4">
              {navItems(loaderData.counts).map((item) => (
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
              ))}
            </ul>
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm">
            <span className="text-slate-700">{loaderData.operatorEmail}</span>
            <Form method="post" action="/admin/logout">
              <button type="submit" className="rounded border border-slate-400 px-3 py-1 font-semibold text-slate-800">
                Sign out
              </button>
            </Form>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        <Outlet />
      </main>
    </>
  );
}
