/**
 * A job's or a call's details on a partner's signed-link page, a label above each value; a phone number and an email
 * address are links to call or write.
 */
export function DetailRows({ rows }: { rows: [label: string, value: string][] }) {
  return (
    <dl className="mt-3">
      {rows.map(([label, value]) => (
        <div key={label} className="border-b border-slate-200 py-2">
          <dt className="font-semibold text-slate-900">{label}</dt>
          <dd className="mt-1 break-words whitespace-pre-wrap text-slate-900">
            {label === "Phone" ? (
              <a href={`tel:${value.replace(/[^\d+]/g, "")}`} className="font-semibold text-brand-700 underline">
                {value}
              </a>
            ) : label === "Email" ? (
              <a href={`mailto:${value}`} className="font-semibold break-all text-brand-700 underline">
                {value}
              </a>
            ) : (
              value
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
