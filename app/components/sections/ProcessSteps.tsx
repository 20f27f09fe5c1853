import { Section, type SectionComponentProps } from "~/components/sections/Section.tsx";

/** How a job runs, as numbered steps. */
export function ProcessSteps({ heading, steps, tone }: SectionComponentProps<"process">) {
  return (
    <Section heading={heading} tone={tone}>
      <ol className="mx-auto mt-10 grid max-w-5xl gap-6 md:auto-cols-fr md:grid-flow-col">
        {steps.map((step, index) => (
          <li key={step.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <span
              aria-hidden="true"
              className="inline-flex size-10 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white"
            >
              {index + 1}
            </span>
            <h3 className="mt-4 text-xl font-bold text-brand-900">{step.title}</h3>
            <p className="mt-2 text-slate-700">{step.description}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
