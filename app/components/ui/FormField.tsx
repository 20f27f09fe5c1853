import type { InputHTMLAttributes } from "react";

interface FormFieldProps {
  /** The form's id prefix, so that two forms on a page never share element ids. */
  formId: string;
  name: string;
  label: string;
  error?: string;
  /** A hint after the label, such as "(optional)". */
  hint?: string;
  type?: "text" | "email" | "tel";
  /** A textarea with this many rows instead of an input. */
  rows?: number;
  placeholder?: string;
  autoComplete?: string;
  maxLength?: number;
  required?: boolean;
  defaultValue?: string;
  autoFocus?: boolean;
  inputMode?: InputHTMLAttributes<HTMLInputElement>["inputMode"];
  className?: string;
}

const controlClass =
  "mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30";

/** A visible label, its input, and the error under it, tied together with aria-describedby. */
export function FormField({
  formId,
  name,
  label,
  error,
  hint,
  type = "text",
  rows,
  className = "",
  ...control
}: FormFieldProps) {
  const id = `${formId}-${name}`;
  const errorId = `${id}-error`;
  const shared = {
    ...control,
    id,
    name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    className: `${controlClass} ${error ? "border-red-700" : "border-slate-400"}`,
  };
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
        {label}
        {hint ? <span className="ml-1 font-normal text-slate-600">{hint}</span> : null}
      </label>
      {rows ? <textarea {...shared} rows={rows} /> : <input {...shared} type={type} />}
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
