import type { ReactNode } from "react";
import { Link } from "react-router";
import { linkClass } from "../components/TableRegion.tsx";
import type { GettingStartedState } from "./getting-started.server.ts";

interface Step {
  title: string;
  done: boolean;
  /** One line: what is in place when done, else what to do. */
  says: ReactNode;
  link: { to: string; label: string };
}

/** A setting's name, wrapped anywhere on a phone. */
const Setting = ({ children }: { children: string }) => <code className="[overflow-wrap:anywhere]">{children}</code>;

/** The steps of a new install, in the order an operator takes them, each worded for its state. */
function steps(state: GettingStartedState): Step[] {
  const backups = state.backupsOffMachine;
  return [
    {
      title: "Company name and phone number",
      done: state.companyAndPhone,
      says: state.companyAndPhone ? (
        "Visitors see your company name and phone number."
      ) : (
        <>
          The site still shows a shipped name or number: set <Setting>COMPANY_NAME</Setting>,{" "}
          <Setting>PHONE_DISPLAY</Setting> and <Setting>PHONE_E164</Setting> in the server&apos;s <code>.env</code> and
          run <code>npm start</code> (docs/guides/configuration.md).
        </>
      ),
      link: { to: "/", label: "See your home page" },
    },
    {
      title: "First partner and fees",
      done: state.partnerAndFees,
      says: state.partnerAndFees
        ? "An active partner is charged a fee for what you send them."
        : "Add a partner plumber with a fee per referral or per call, or set a default fee.",
      link: { to: "/admin/partners", label: "Partners" },
    },
    {
      title: "Twilio",
      done: state.twilio,
      says: state.twilio ? (
        "Twilio is set up: calls are tracked and logged."
      ) : (
        <>
          For call tracking and texts, set <Setting>TWILIO_ACCOUNT_SID</Setting>, <Setting>TWILIO_AUTH_TOKEN</Setting>{" "}
          and <Setting>CALL_FORWARD_TO</Setting> in <code>.env</code> and run <code>npm start</code>{" "}
          (docs/guides/calls.md).
        </>
      ),
      link: { to: "/admin/calls", label: "Calls" },
    },
    {
      title: "Backups copied off the machine",
      done: backups.done,
      says: backups.done
        ? `A verified backup was downloaded on ${backups.lastDownloadedAt}.`
        : `${backups.lastDownloadedAt ? `The last one was downloaded on ${backups.lastDownloadedAt}, over a week ago. ` : ""}Download the newest backup and its checksum, and keep them off this machine, once a week.`,
      link: { to: "/admin/outbox#backups-heading", label: "Backups, on the Outbox page" },
    },
  ];
}

/**
 * The empty inbox of a new install: the steps that make the site ready for its first lead, each ticked from the
 * site's own settings and data, its state in words.
 */
export function GettingStarted({ state }: { state: GettingStartedState }) {
  const list = steps(state);
  const done = list.filter((step) => step.done).length;
  return (
    <section aria-labelledby="getting-started-heading" className="mt-6 max-w-3xl rounded border border-slate-300 p-4">
      <h2 id="getting-started-heading" className="text-xl font-bold text-slate-900">
        Getting started
      </h2>
      <p className="mt-1 text-slate-800">
        {done === list.length
          ? "All done: the site is ready for its first lead."
          : `${done} of ${list.length} done. Leads will show here once visitors send them.`}
      </p>
      <ol className="mt-3 grid gap-3">
        {list.map((step) => (
          <li key={step.title} className="flex gap-3">
            <span
              aria-hidden="true"
              className={`mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full border-2 font-bold ${
                step.done ? "border-green-800 bg-green-800 text-white" : "border-slate-500 text-transparent"
              }`}
            >
              ✓
            </span>
            <div className="min-w-0">
              <p className="font-semibold text-slate-900">
                {step.title}:{" "}
                <span className={step.done ? "text-green-900" : "text-slate-800"}>{step.done ? "Done" : "To do"}</span>
              </p>
              <p className="text-slate-800">
                {step.says}{" "}
                {step.link.to.startsWith("/admin") ? (
                  <Link to={step.link.to} className={linkClass}>
                    {step.link.label}
                  </Link>
                ) : (
                  <a href={step.link.to} className={linkClass}>
                    {step.link.label}
                  </a>
                )}
              </p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
