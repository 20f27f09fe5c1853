import type { ReactNode } from "react";
import { Form } from "react-router";
import { RETURN_REASONS } from "~/lib/return-reasons.ts";

/**
 * A partner giving a job back, a returned lead or a disputed call alike, on its signed-link page: what it is for, one
 * of the reasons, details (required for "Other", which the server checks), the server's error beside them, and the
 * button that sends it. A plain form that works without JavaScript. `id` keeps each page's fields apart.
 */
export function ReturnReasonForm({
  id,
  error,
  intent,
  intro,
  submitLabel,
  className,
}: {
  id: string;
  error: string | undefined;
  /** The form's `intent`, when its page has other forms. */
  intent?: string;
  intro: ReactNode;
  submitLabel: string;
  className: string;
}) {
  return (
    <Form method="post" className={`grid gap-4 ${className}`} noValidate>
      <p className="text-slate-800">{intro}</p>
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <div>
        <label htmlFor={`${id}-reason`} className="font-semibold text-slate-900">
          Reason
        </label>
        <select
          id={`${id}-reason`}
          name="reason"
          required
          defaultValue=""
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="mt-1 block w-full rounded-lg border-2 border-slate-600 bg-white px-3 py-3 text-lg text-slate-900"
        >
          <option value="" disabled>
            Choose a reason
          </option>
          {RETURN_REASONS.map((reason) => (
            <option key={reason} value={reason}>
              {reason}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-detail`} className="font-semibold text-slate-900">
          Details
        </label>
        <textarea
          id={`${id}-detail`}
          name="detail"
          rows={3}
          maxLength={500}
          aria-describedby={`${id}-detail-hint`}
          className="mt-1 block w-full rounded-lg border-2 border-slate-600 px-3 py-2 text-lg text-slate-900"
        />
        <p id={`${id}-detail-hint`} className="mt-1 text-slate-700">
          Required for “Other”.
        </p>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="font-semibold text-red-800">
          {error}
        </p>
      ) : null}
      <div>
        <button
          type="submit"
          className="rounded-lg border-2 border-slate-700 bg-white px-5 py-3 text-lg font-bold text-slate-900 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          {submitLabel}
        </button>
      </div>
    </Form>
  );
}
