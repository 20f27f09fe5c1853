import type { ReactNode } from "react";

/**
 * A wide table scrolls sideways inside its own labelled, focusable region, so on a 390 px phone the page
 * itself never scrolls sideways and keyboard users can scroll the table too.
 */
function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="mt-3 overflow-x-auto rounded border border-slate-300 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
    >
      {children}
    </div>
  );
}

const tableClass = "min-w-full border-collapse text-left text-sm";
/** Every cell of the body's rows, given once on the body rather than on each of a table's thousand cells. */
const bodyClass =
  "[&>tr>*]:border-b [&>tr>*]:border-slate-200 [&>tr>*]:px-3 [&>tr>*]:py-2 [&>tr>*]:align-top [&>tr>*]:text-slate-900";
const headerCellClass =
  "border-b border-slate-300 bg-slate-100 px-3 py-2 font-semibold whitespace-nowrap text-slate-900";

/**
 * A console table: a caption for screen readers, one header row of column headings, and the rows given as
 * children, inside a region that scrolls sideways on a phone.
 */
export function DataTable({
  label,
  caption,
  headings,
  children,
}: {
  label: string;
  caption: string;
  headings: ReactNode[];
  children: ReactNode;
}) {
  return (
    <TableRegion label={label}>
      <table className={tableClass}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {headings.map((heading, index) => (
              <th key={index} scope="col" className={headerCellClass}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={bodyClass}>{children}</tbody>
      </table>
    </TableRegion>
  );
}
export const linkClass =
  "font-semibold text-blue-800 underline underline-offset-2 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
export const buttonClass =
  "rounded border border-blue-800 bg-blue-800 px-3 py-1.5 font-semibold whitespace-nowrap text-white hover:bg-blue-900 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
export const fieldClass =
  "mt-1 block w-full rounded border border-slate-500 bg-white px-3 py-2 text-slate-900 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-blue-700";
/** A button whose action cannot be undone and takes something away: red, and asked about first. */
export const dangerButtonClass =
  "rounded border border-red-800 bg-red-800 px-3 py-1.5 font-semibold whitespace-nowrap text-white hover:bg-red-900 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
/** A way out that changes nothing: "Cancel". */
export const quietButtonClass =
  "inline-block rounded border border-slate-500 bg-white px-3 py-1.5 font-semibold whitespace-nowrap text-slate-900 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
