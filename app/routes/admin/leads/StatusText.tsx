import type { LeadStatus } from "~/lib/lead-status.ts";

/** A lead's status as a word; the shading only repeats what the word says. */
export function StatusText({ status }: { status: LeadStatus }) {
  const shade =
    status === "New" ? "bg-amber-100 text-amber-950 ring-amber-700" : "bg-slate-100 text-slate-900 ring-slate-400";
  return <span className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ring-1 ${shade}`}>{status}</span>;
}
