import { Form, Link } from "react-router";
import { SEARCH_MAX_LENGTH } from "~/lib/console-limits.ts";
import { buttonClass, fieldClass, linkClass } from "./TableRegion.tsx";

/**
 * A console list's search (GET, so it works without JavaScript and the address can be shared): a text field
 * `q` with its hint below the form, one filter, "Search", and "Clear" back to `clearTo` once anything is set.
 */
export function SearchForm({
  id,
  label,
  search,
  filter,
  clearTo,
}: {
  /** Prefix of the fields' ids. */
  id: string;
  /** The search landmark's name. */
  label: string;
  search: { label: string; value: string; hint: string; inputMode?: "tel" };
  filter: { name: string; label: string; allLabel: string; options: readonly string[]; value: string };
  clearTo: string;
}) {
  const filtered = search.value !== "" || filter.value !== "";
  return (
    <>
      <Form method="get" role="search" aria-label={label} className="mt-4 flex flex-wrap items-end gap-3">
        <div className="min-w-48 flex-1">
          <label htmlFor={`${id}-q`} className="font-semibold text-slate-900">
            {search.label}
          </label>
          <input
            id={`${id}-q`}
            name="q"
            type="search"
            inputMode={search.inputMode}
            defaultValue={search.value}
            maxLength={SEARCH_MAX_LENGTH}
            aria-describedby={`${id}-q-hint`}
            className={fieldClass}
          />
        </div>
        <div>
          <label htmlFor={`${id}-${filter.name}`} className="font-semibold text-slate-900">
            {filter.label}
          </label>
          <select id={`${id}-${filter.name}`} name={filter.name} defaultValue={filter.value} className={fieldClass}>
            <option value="">{filter.allLabel}</option>
            {filter.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <div className="flex gap-3 pb-1">
          <button type="submit" className={buttonClass}>
            Search
          </button>
          {filtered ? (
            <Link to={clearTo} className={`${linkClass} self-center`}>
              Clear
            </Link>
          ) : null}
        </div>
      </Form>
      <p id={`${id}-q-hint`} className="mt-1 text-sm text-slate-700">
        {search.hint}
      </p>
    </>
  );
}

/** A list's query string out of bounds (400): what is allowed, inside the console, with a way back to the whole list. */
export function ListQueryError({
  heading,
  message,
  back,
}: {
  heading: string;
  message: string;
  back: { to: string; label: string };
}) {
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">{heading}</h1>
      <p role="alert" className="mt-4 rounded border border-red-800 bg-red-50 p-3 font-semibold text-red-900">
        {message}
      </p>
      <p className="mt-4">
        <Link to={back.to} className={linkClass}>
          {back.label}
        </Link>
      </p>
    </>
  );
}
