import type { InputHTMLAttributes, ReactNode } from "react";
import { fieldClass } from "./TableRegion.tsx";

/** A field's error, under it; the field names it in its aria-describedby. */
export function FieldError({ id, error }: { id: string; error: ReactNode }) {
  return error ? (
    <p id={id} className="mt-1 font-semibold text-red-800">
      {error}
    </p>
  ) : null;
}

/** A labelled text field with its hint and its error, described by both. */
export function TextField({
  id,
  label,
  hint,
  error,
  className = "",
  ...input
}: {
  id: string;
  name: string;
  label: string;
  hint?: string;
  error: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor={id} className="font-semibold text-slate-900">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={`${fieldClass} ${className}`.trim()}
        {...input}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-700">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
