import { ConsoleForm } from "./ConsoleForm.tsx";
import { buttonClass, fieldClass } from "./TableRegion.tsx";
import { FieldError } from "./FormField.tsx";
import type { CustomerThread } from "~/server/texts/index.server.ts";
import { TEXT_MAX_LENGTH } from "~/lib/console-limits.ts";

const STATUS_WORDS = {
  received: "Received",
  queued: "Queued",
  sent: "Sent",
  delivered: "Delivered",
  failed: "Failed",
} as const;

/** What the composer's last post came back with: an error, or quiet hours to confirm. */
export interface ComposerAnswer {
  error?: string;
  quietHours?: { label: string };
  body?: string;
}

/**
 * A customer's texts, both directions, oldest first, each outgoing one with its delivery state; then the "Message"
 * field and "Send text", or "This number replied STOP" when it opted out. `back` is where a sent text returns to.
 */
export function TextThread({
  thread,
  action,
  back,
  answer,
}: {
  thread: CustomerThread;
  action: string;
  back: string;
  answer?: ComposerAnswer | undefined;
}) {
  return (
    <>
      {thread.texts.length === 0 ? (
        <p className="mt-2 text-slate-800">No texts with this number yet.</p>
      ) : (
        <ol aria-label={`Texts with ${thread.customer}`} className="mt-3 space-y-3">
          {thread.texts.map((text) => (
            <li
              key={text.id}
              className={`max-w-xl rounded-lg border p-3 ${
                text.direction === "in" ? "border-slate-300 bg-white" : "ml-auto border-blue-300 bg-blue-50"
              }`}
            >
              <p className="text-sm text-slate-700">
                <span className="font-semibold text-slate-900">
                  {text.direction === "in" ? "Customer" : text.automatic ? "Automatic" : "You"}
                </span>
                {`, ${text.time}: `}
                <span className="font-semibold text-slate-900">{STATUS_WORDS[text.status]}</span>
                {text.waitsUntil ? ` (quiet hours: goes at ${text.waitsUntil})` : null}
              </p>
              <p className="mt-1 break-words whitespace-pre-wrap text-slate-900">{text.body}</p>
            </li>
          ))}
        </ol>
      )}
      {thread.optedOut ? (
        <p className="mt-4 rounded-lg border-2 border-amber-700 bg-amber-50 p-3 font-semibold text-slate-900">
          This number replied STOP
        </p>
      ) : (
        <ConsoleForm name="text" action={action} className="mt-4 max-w-xl">
          <input type="hidden" name="back" value={back} />
          {answer?.quietHours ? (
            <div role="alert" className="mb-3 rounded-lg border-2 border-amber-700 bg-amber-50 p-3 text-slate-900">
              <p>
                {`It is quiet hours (${answer.quietHours.label}) where your customers are. Send this text now anyway?`}
              </p>
              <input type="hidden" name="confirmQuietHours" value="yes" />
            </div>
          ) : null}
          <label htmlFor="text-body" className="font-semibold text-slate-900">
            Message
          </label>
          <textarea
            id="text-body"
            name="body"
            rows={3}
            required
            maxLength={TEXT_MAX_LENGTH}
            defaultValue={answer?.body}
            aria-invalid={answer?.error ? true : undefined}
            aria-describedby={answer?.error ? "text-body-error" : undefined}
            className={fieldClass}
          />
          <FieldError id="text-body-error" error={answer?.error} />
          <button type="submit" className={`${buttonClass} mt-2`}>
            {answer?.quietHours ? "Send text now" : "Send text"}
          </button>
        </ConsoleForm>
      )}
    </>
  );
}
