import { useId } from "react";
import { Icon } from "~/components/Icon.tsx";
import type { SectionContent } from "~/content/types.ts";

/** A red safety box: what to do first, before anything else on the page. */
export function EmergencyNotice({ heading, steps }: SectionContent<"emergency-notice">) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="px-4 py-12">
      <div className="mx-auto flex max-w-4xl gap-4 rounded-2xl border-2 border-red-700 bg-red-50 p-6 sm:p-8">
        <Icon name="alert" className="size-8 shrink-0 text-red-700" />
        <div>
          <h2 id={headingId} className="text-2xl font-extrabold text-red-800">
            {heading.title}
          </h2>
          {heading.intro ? <p className="mt-2 text-slate-800">{heading.intro}</p> : null}
          <ol className="mt-4 list-decimal space-y-2 pl-5 font-medium text-slate-900">
            {steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  );
}
