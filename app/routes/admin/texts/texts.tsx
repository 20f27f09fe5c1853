import { data, Link } from "react-router";
import type { Route } from "./+types/texts";
import { ConsoleSection } from "../components/ConsoleSection.tsx";
import { FieldError, TextField } from "../components/FormField.tsx";
import { buttonClass, fieldClass } from "../components/TableRegion.tsx";
import { TEXT_BACK_MESSAGE_MAX_LENGTH, TEXT_MAX_LENGTH } from "~/lib/console-limits.ts";
import { LEAD_LIMITS } from "~/lib/lead-schemas.ts";
import { confirmed, confirmFirst, done, invalid, requireOperator } from "~/server/console/index.server.ts";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import {
  customerNumber,
  listThreads,
  OPTED_OUT_ERROR,
  QUIET_HOURS_LABEL,
  saveTextBackMessage,
  textBackMessage,
  threadPath,
} from "~/server/texts/index.server.ts";
import { postedForm } from "~/server/http/index.server.ts";
import { newestLeadByPhone, phoneKey } from "~/server/leads/index.server.ts";

/** What "New text" was sent with, and why it was not sent. */
interface NewTextAnswer {
  to: string;
  body: string;
  errors: { to?: string | undefined; body?: string | undefined };
}

export const meta: Route.MetaFunction = () => [{ title: "Texts" }, { name: "robots", content: "noindex" }];

/** Texting is off (no Twilio number to text from): nothing can be saved. */
function requireTexting(context: Route.LoaderArgs["context"]) {
  if (!context.services.texts) throw data(null, { status: 404 });
  return context.services.texts;
}

export async function loader({ context, request }: Route.LoaderArgs) {
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
  // "Text this customer" on a lead's page opens "New text" with the lead's number in it.
  const to = customerNumber(new URL(request.url).searchParams.get("to") ?? "");
  return {
    off: false as const,
    newTextTo: to ?? "",
    threads: threads.map((thread) => ({
      ...thread,
      leadName: leads.get(phoneKey(thread.customer))?.name ?? null,
      path: threadPath(thread.customer),
    })),
    textBack: { message, example: texts.textBackPreview(message) },
  };
}

/** What "New text" was sent with, shown again beside its errors. */
const typedValue = (value: FormDataEntryValue | null, max: number) =>
  typeof value === "string" ? value.slice(0, max) : "";

/**
 * "Send text" of "New text": queued, then on the number's thread (POST, then redirect); 400 for a number that cannot
 * be texted or an empty or long message; 409 when the number replied STOP; in quiet hours, asked first. "Save" the
 * text-back message: 400 with the field's error when it is empty or too long.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const texts = requireTexting(context);
  const form = await postedForm(request);
  if (form.get("intent") === "new-text") {
    const typed = {
      to: typedValue(form.get("to"), LEAD_LIMITS.phone),
      body: typedValue(form.get("body"), TEXT_MAX_LENGTH),
    };
    return context.services.consoleForms.once(request, operator, form, async () => {
      const sent = await texts.startThread({
        to: form.get("to"),
        body: form.get("body"),
        confirmedQuietHours: confirmed(form),
      });
      if (sent.kind === "invalid") return invalid({ error: undefined, newText: { ...typed, errors: sent.errors } });
      if (sent.kind === "opted-out") {
        return invalid({ error: undefined, newText: { ...typed, errors: { to: OPTED_OUT_ERROR } } }, 409);
      }
      const lead = (await newestLeadByPhone(context.services.db, [sent.customer])).get(phoneKey(sent.customer));
      const who = lead ? `${lead.name} (${sent.customer})` : sent.customer;
      if (sent.kind === "quiet-hours") {
        return confirmFirst(
          `It is quiet hours (${QUIET_HOURS_LABEL}) where your customers are. Send this text to ${who} now anyway?`,
          "Yes, send it now",
        );
      }
      return done(`Text sent to ${who}.`, threadPath(sent.customer));
    });
  }
  return context.services.consoleForms.once(request, operator, form, async () => {
    const saved = await saveTextBackMessage(context.services.db, form.get("message"));
    if (saved.kind === "invalid") return invalid({ error: saved.error, newText: undefined });
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
      <ConsoleSection id="new-text" heading="New text" className="mt-6">
        <NewTextForm to={loaderData.newTextTo} answer={actionData?.newText} />
      </ConsoleSection>
      <ConsoleSection
        id="threads"
        heading="Threads, newest first"
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

/**
 * "New text": a number and a message; sent, it leads to the number's thread (a new one, or the one it has). The
 * number is written as people write it; outside North America, with + and the country code.
 */
function NewTextForm({ to, answer }: { to: string; answer: NewTextAnswer | undefined }) {
  const errors = answer?.errors ?? {};
  return (
    <ConsoleForm name="new-text" className="mt-3 grid max-w-xl gap-3">
      <TextField
        id="new-text-to"
        name="to"
        label="Phone number"
        type="tel"
        inputMode="tel"
        autoComplete="off"
        maxLength={LEAD_LIMITS.phone}
        hint="Like (555) 010-0123; outside North America, with + and the country code."
        defaultValue={answer?.to ?? to}
        error={errors.to}
      />
      <div>
        <label htmlFor="new-text-body" className="font-semibold text-slate-900">
          Message
        </label>
        <textarea
          id="new-text-body"
          name="body"
          rows={3}
          required
          maxLength={TEXT_MAX_LENGTH}
          defaultValue={answer?.body}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? "new-text-body-error" : undefined}
          className={fieldClass}
        />
        <FieldError id="new-text-body-error" error={errors.body} />
      </div>
      <div>
        <button type="submit" className={buttonClass}>
          Send text
        </button>
      </div>
    </ConsoleForm>
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
