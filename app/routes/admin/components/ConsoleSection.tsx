import type { ReactNode } from "react";

/**
 * A section of a console page: its heading, then what it lists, or a sentence saying there is nothing yet
 * when `isEmpty`.
 */
export function ConsoleSection({
  id,
  heading,
  isEmpty = false,
  emptyText,
  className = "mt-8",
  children,
}: {
  id: string;
  heading: ReactNode;
  isEmpty?: boolean;
  emptyText?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={className}>
      <h2 id={`${id}-heading`} className="text-xl font-bold text-slate-900">
        {heading}
      </h2>
      {isEmpty ? <p className="mt-2 text-slate-800">{emptyText}</p> : children}
    </section>
  );
}
