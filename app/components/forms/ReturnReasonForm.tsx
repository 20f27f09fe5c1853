import { RETURN_REASONS } from "~/lib/return-reasons.ts";

/**
 * Why a partner gives a job back, a returned lead or a disputed call alike: one of the reasons, details (required for
 * "Other", which the server checks), and the server's error beside them. `id` keeps each page's fields apart.
 */
export function ReturnReasonFields({ id, error }: { id: string; error: string | undefined }) {
  return (
    <>
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
    </>
  );
}
