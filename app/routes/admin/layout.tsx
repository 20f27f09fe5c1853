import { Form, NavLink, Outlet } from "react-router";
import type { Route } from "./+types/layout";
import consoleStylesheet from "./console.css?url";
import { siteConfig } from "~/config/site.ts";
import { requireOperator } from "~/server/console/operator.server.ts";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: consoleStylesheet }];

export function loader({ context }: Route.LoaderArgs) {
  return { operatorEmail: requireOperator(context).email };
}

const NAV = [
  { to: "/admin", label: "Inbox", end: true },
  { to: "/admin/opt-outs", label: "Opt-outs", end: false },
  { to: "/admin/outbox", label: "Outbox", end: false },
];

/** The console's frame: who is signed in, the pages, and "Sign out". */
export default function ConsoleLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <header className="border-b border-slate-300 bg-slate-50">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <p className="font-bold text-slate-900">{siteConfig.companyName} console</p>
          <nav aria-label="Console">
            <ul className="flex flex-wrap gap-4">
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.end}
                    className="font-semibold text-blue-800 underline-offset-2 hover:underline aria-[current=page]:underline"
                  >
                    {item.label}
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
