import { data, Link } from "react-router";
import type { Route } from "./+types/texts";
import { ConsoleSection } from "../components/ConsoleSection.tsx";
import { FieldError } from "../components/FormField.tsx";
import { buttonClass, fieldClass } from "../components/TableRegion.tsx";
import { TEXT_BACK_MESSAGE_MAX_LENGTH } from "~/lib/console-limits.ts";
import { done, invalid, requireOperator } from "~/server/console/index.server.ts";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { listThreads, saveTextBackMessage, textBackMessage, threadPath } from "~/server/texts/index.server.ts";
import { postedForm } from "~/server/http/index.server.ts";
import { newestLeadByPhone, phoneKey } from "~/server/leads/index.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Texts" }, { name: "robots", content: "noindex" }];

/** Texting is off (no Twilio number to text from): nothing can be saved. */
function requireTexting(context: Route.LoaderArgs["context"]) {
  if (!context.services.texts) throw data(null, { status: 404 });
  return context.services.texts;
}

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  const texts = context.services.texts;
  // With texting off, the page says how to turn it on.
  if (!texts) return { off: true as const };
  const [threads, message] = await Promise.all([
    listThreads(context.services.run, context.operatorTimeZone),
    textBackMessage(context.services.db),
  ]);
  // A number that belongs to a lead is shown by the lead's name, so that a reply goes to the customer meant.
  const leads = await newestLeadByPhone(
    context.services.db,
    threads.map((thread) => thread.customer),
  );
  return {
    off: false as const,
    threads: threads.map((thread) => ({
      ...thread,
      leadName: leads.get(phoneKey(thread.customer))?.name ?? null,
      path: threadPath(thread.customer),
    })),
    textBack: { message, example: texts.textBackPreview(message) },
  };
}

/** "Save" the text-back message: 400 with the field's error when it is empty or too long. */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  requireTexting(context);
  const form = await postedForm(request);
  return context.services.consoleForms.once(request, operator, form, async () => {
    const saved = await saveTextBackMessage(context.services.db, form.get("message"));
    if (saved.kind === "invalid") return invalid({ error: saved.error });
    return done("Text-back message saved.", "/admin/texts");
  });
}

/** Threads with customers, newest first, with what is unread; and the missed-call text-back's message. */
export default function Texts({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.off) return <TextsOff />;
  const { threads, textBack } = loaderData;
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Texts</h1>
      <ConsoleSection
        id="threads"
        heading="Threads, newest first"
        className="mt-6"
        isEmpty={threads.length === 0}
        emptyText="No texts yet. A customer's text, and any you send from a lead or a call, show here."
      >
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-300 bg-white">
          {threads.map((thread) => (
            <li key={thread.customer} className="p-3">
              <Link to={thread.path} className="font-semibold text-blue-800 underline underline-offset-2">
                {thread.leadName ? `${thread.leadName} (${thread.customer})` : thread.customer}
              </Link>
              {thread.unread > 0 ? (
                <span className="ml-2 inline-block rounded-full bg-blue-800 px-2 text-xs leading-5 font-semibold text-white">
                  {thread.unread} unread
                </span>
              ) : null}
              <p className="mt-1 text-sm text-slate-700">
                {`${thread.lastAt}, ${thread.lastDirection === "in" ? "customer" : "sent"}: `}
                <span className="break-words text-slate-900">{thread.lastBody.slice(0, 140)}</span>
              </p>
            </li>
          ))}
        </ul>
      </ConsoleSection>

      <ConsoleSection id="text-back" heading="Missed-call text-back">
        <p className="mt-2 max-w-prose text-slate-800">
          A caller nobody answered gets this text within a minute (once a day per number; in quiet hours, at 08:00). It
          starts with the company’s name and ends with how to opt out:
        </p>
        <p className="mt-2 max-w-prose rounded-lg border border-slate-300 bg-white p-3 text-slate-900">
          {textBack.example}
        </p>
        <ConsoleForm name="text-back" className="mt-3 max-w-xl">
          <label htmlFor="text-back-message" className="font-semibold text-slate-900">
            Text-back message
          </label>
          <textarea
            id="text-back-message"
            name="message"
            rows={3}
            required
            maxLength={TEXT_BACK_MESSAGE_MAX_LENGTH}
            defaultValue={textBack.message}
            aria-invalid={actionData?.error ? true : undefined}
            aria-describedby={actionData?.error ? "text-back-message-error" : undefined}
            className={fieldClass}
          />
          <FieldError id="text-back-message-error" error={actionData?.error} />
          <div className="mt-2">
            <button type="submit" className={buttonClass}>
              Save
            </button>
          </div>
        </ConsoleForm>
      </ConsoleSection>
    </>
  );
}

/** What turns texting with customers on: Twilio's account, and a number of it to text from. */
function TextsOff() {
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Texts</h1>
      <p className="mt-4 max-w-prose text-slate-800">
        Texting with customers is off. To turn it on, set these in the server&apos;s settings (<code>.env</code>) and
        restart it (<code>npm start</code>):
      </p>
      <ul className="mt-2 max-w-prose list-disc space-y-1 pl-6 text-slate-800">
        <li>
          <code>TWILIO_ACCOUNT_SID</code> and <code>TWILIO_AUTH_TOKEN</code>: your Twilio account (with{" "}
          <code>CALL_FORWARD_TO</code>, as for call tracking);
        </li>
        <li>
          <code>TWILIO_FROM_NUMBER</code>: a Twilio number that can send texts, like +15555550123; point its &ldquo;A
          message comes in&rdquo; webhook at <code>/api/sms/incoming</code> on your site.
        </li>
      </ul>
      <p className="mt-2 max-w-prose text-slate-800">
        Then customers&apos; texts show here, a lead&apos;s page can text the customer, and missed callers get a text
        back. The texts guide (docs/guides/texts.md) has the steps.
      </p>
    </>
  );
}
