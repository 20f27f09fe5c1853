import type { SectionHeading } from "~/content/types.ts";

export function SectionHeader({ heading, id }: { heading: SectionHeading; id?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <h2 id={id} className="text-3xl font-extrabold tracking-tight text-brand-900 sm:text-4xl">
        {heading.title}
      </h2>
      {heading.intro ? <p className="mt-3 text-lg text-slate-700">{heading.intro}</p> : null}
    </div>
  );
}
