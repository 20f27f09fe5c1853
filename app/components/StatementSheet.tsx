/**
 * A partner's statement as they read it (the signed link's page, and the console's preview): its dates, every
 * entry with its amount, and how to pay.
 */
export function StatementSheet({
  title,
  notice,
  statement,
}: {
  title: string;
  /** Said under the title, like "Not issued: …" on a preview. */
  notice?: string;
  statement: {
    summary: [string, string][];
    headings: string[];
    entries: string[][];
    paymentInstructions: string;
  };
}) {
  const { summary, headings, entries, paymentInstructions } = statement;
  return (
    <section className="mx-auto max-w-3xl px-4 py-10" aria-labelledby="statement-heading">
      <h1 id="statement-heading" className="text-3xl font-bold text-slate-900">
        {title}
      </h1>
      {notice ? <p className="mt-2 text-slate-800">{notice}</p> : null}
      <dl className="mt-4 grid grid-cols-[8rem_1fr] gap-1 text-slate-900">
        {summary.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-semibold">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-6 overflow-x-auto" role="region" aria-label="Entries" tabIndex={0}>
        <table className="w-full border-collapse text-left text-slate-900">
          <caption className="sr-only">Every entry of the month, with the opening and closing balances</caption>
          <thead>
            <tr>
              {headings.map((heading) => (
                <th key={heading} scope="col" className="border-b-2 border-slate-400 p-2">
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {entries.map((row, index) => (
              <tr key={index} className="border-b border-slate-200">
                {row.map((cell, column) => (
                  <td key={column} className={`p-2 ${column === row.length - 1 ? "text-right" : ""}`}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {paymentInstructions ? (
        <section className="mt-8" aria-labelledby="how-to-pay-heading">
          <h2 id="how-to-pay-heading" className="text-xl font-bold text-slate-900">
            How to pay
          </h2>
          <p className="mt-2 whitespace-pre-line text-slate-900">{paymentInstructions}</p>
        </section>
      ) : null}
    </section>
  );
}
