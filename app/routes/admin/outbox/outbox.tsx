import type { ReactNode } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/outbox";
import { DataTable, buttonClass, linkClass } from "../components/TableRegion.tsx";
import { done, invalid, requireOperator } from "~/server/console/index.server.ts";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { listUnsent, retryNow, type OutboxQueue } from "~/server/outbox/index.server.ts";
import { isRowId } from "~/lib/row-id.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { lastBackup } from "~/server/backups/index.server.ts";
import { postedForm } from "~/server/http/index.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Outbox" }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  const [unsent, backup] = await Promise.all([
    listUnsent(context.services.db, context.operatorTimeZone),
    lastBackup(context.services.db),
  ]);
  return {
    ...unsent,
    backup: backup && {
      file: backup.file,
      at: formatTime(backup.createdAt, context.operatorTimeZone),
      size: `${(backup.sizeBytes / 1024 / 1024).toFixed(1)} MB`,
      verified: backup.verifiedAt !== null,
      problem: backup.verifyError,
      downloadedAt: backup.downloadedAt && formatTime(backup.downloadedAt, context.operatorTimeZone),
    },
  };
}

const QUEUES: readonly OutboxQueue[] = ["emails", "messages"];

/** "Retry now": the email or message becomes due now and the outbox worker is woken to send it. */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const form = await postedForm(request);
  const queue = QUEUES.find((name) => name === form.get("queue"));
  const id = form.get("id");
  if (!queue || !isRowId(id))
    return data({ error: "That is not an email or a message in the outbox." }, { status: 400 });
  return context.services.consoleForms.once(request, operator, form, async () => {
    if (!(await retryNow(context.services.db, queue, id))) {
      return invalid({ error: "That is no longer waiting: it has been sent." }, 409);
    }
    context.services.outbox.nudge(queue);
    return done("Sending again now.", "/admin/outbox");
  });
}

/** How each channel's messages are named on the page (texts and Twilio requests only exist once Twilio is set up). */
const CHANNEL_NAMES: Record<string, string> = { push: "Phone alert", sms: "Text message", twilio: "Twilio API" };

/** "new_lead_push" → "New lead push". */
function purposeName(purpose: string): string {
  const words = purpose.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The columns every queue's rows end with: attempts, next attempt, last error and "Retry now". */
const DELIVERY_HEADINGS = ["Queued", "Attempts", "Next attempt", "Last error", "Action"];

function DeliveryCells({
  row,
  queue,
  name,
}: {
  row: Route.ComponentProps["loaderData"]["emails" | "messages"][number];
  queue: OutboxQueue;
  /** What the row is, for the button's accessible name. */
  name: string;
}) {
  return (
    <>
      <td className="whitespace-nowrap">{row.queuedAt}</td>
      <td>{row.attempts}</td>
      <td className="whitespace-nowrap">{row.failed ? "None: given up" : row.nextAttemptAt}</td>
      <td className="min-w-48 break-words">{row.lastError ?? "None"}</td>
      <td>
        <ConsoleForm name="retry" row={row.id}>
          <input type="hidden" name="queue" value={queue} />
          <input type="hidden" name="id" value={row.id} />
          <button type="submit" className={buttonClass} aria-label={`Retry now: ${name}`}>
            Retry now
          </button>
        </ConsoleForm>
      </td>
    </>
  );
}

/** One queue's heading, then its table, or the line saying it is all sent. */
function Queue({ title, empty, children }: { title: string; empty: string | null; children: ReactNode }) {
  return (
    <>
      <h2 className="mt-6 text-xl font-semibold text-slate-900">{title}</h2>
      {empty ? <p className="mt-2 text-slate-800">{empty}</p> : children}
    </>
  );
}

/** Emails, and the other messages, not sent yet, with their attempts, next attempt and last error. */
export default function Outbox({ loaderData, actionData }: Route.ComponentProps) {
  const { emails, messages, backup } = loaderData;
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Outbox</h1>
      <p className="mt-2 text-slate-800">
        What is not sent yet. A failed email or message is retried on its own, waiting longer after each attempt, until
        it is refused for good or days have passed; "Retry now" sends it at once, even one that was given up.
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-3 rounded border border-red-800 bg-red-50 p-3 font-semibold text-red-900">
          {actionData.error}
        </p>
      ) : null}
      <Queue title="Emails" empty={emails.length === 0 ? "Every email has been sent." : null}>
        <DataTable
          label="Unsent emails"
          caption="Unsent emails, oldest first"
          headings={["Email", "To", ...DELIVERY_HEADINGS]}
        >
          {emails.map((email) => (
            <tr key={email.id}>
              <th scope="row" className="font-normal">
                {email.contactRequestId ? (
                  <Link to={`/admin/leads/${email.contactRequestId}`} className={linkClass}>
                    {email.subject}
                  </Link>
                ) : (
                  email.subject
                )}
              </th>
              <td className="break-all">{email.toAddress}</td>
              <DeliveryCells row={email} queue="emails" name={email.subject} />
            </tr>
          ))}
        </DataTable>
      </Queue>
      <Queue
        title="Alerts and other messages"
        empty={messages.length === 0 ? "Every alert and other message has been sent." : null}
      >
        <DataTable
          label="Unsent messages"
          caption="Unsent alerts and other messages, oldest first"
          headings={["Message", "Sent as", ...DELIVERY_HEADINGS]}
        >
          {messages.map((message) => {
            const channel = CHANNEL_NAMES[message.channel] ?? message.channel;
            return (
              <tr key={message.id}>
                <th scope="row" className="font-normal">
                  {purposeName(message.purpose)}
                </th>
                <td>{channel}</td>
                <DeliveryCells
                  row={message}
                  queue="messages"
                  name={`${purposeName(message.purpose)} (${channel}, ${message.queuedAt})`}
                />
              </tr>
            );
          })}
        </DataTable>
      </Queue>
      <section aria-labelledby="backups-heading">
        <h2 id="backups-heading" className="mt-6 text-xl font-semibold text-slate-900">
          Backups
        </h2>
        {backup ? (
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800">
            <dt className="font-semibold">Last backup</dt>
            <dd className="break-all">
              {backup.at} ({backup.file})
            </dd>
            <dt className="font-semibold">Size</dt>
            <dd>{backup.size}</dd>
            <dt className="font-semibold">Verified</dt>
            <dd>
              {backup.verified
                ? "Yes: restored into a scratch database with every table's row count"
                : backup.problem
                  ? `No: ${backup.problem}`
                  : "Not yet"}
            </dd>
            <dt className="font-semibold">Downloaded</dt>
            <dd>{backup.downloadedAt ?? "Not yet"}</dd>
          </dl>
        ) : (
          <p className="mt-2 text-slate-800">No backup yet: one is made every day, or now with npm run backup.</p>
        )}
        {backup ? (
          <>
            <p className="mt-3 max-w-prose text-slate-800">
              Backups are kept on this machine, which a disk failure or a lost server takes with them: download the
              newest one at least once a week and keep it somewhere else, with its checksum (a restore needs both).
            </p>
            <p className="mt-2 flex flex-wrap gap-3">
              <a href={`/admin/backups/${backup.file}`} download className={buttonClass}>
                Download the newest backup
              </a>
              <a href={`/admin/backups/${backup.file}.sha256`} download className={linkClass}>
                Download its checksum (.sha256)
              </a>
            </p>
          </>
        ) : null}
      </section>
    </>
  );
}
