import { Icon } from "~/components/Icon.tsx";
import { Section, type SectionComponentProps } from "~/components/sections/Section.tsx";

/** Symptoms a visitor may recognise, each with its fix when the content gives one. */
export function ProblemList({ heading, problems, tone }: SectionComponentProps<"problems">) {
  return (
    <Section heading={heading} tone={tone}>
      <ul className="mx-auto mt-10 grid max-w-5xl gap-4 md:grid-cols-2">
        {problems.map((problem) => (
          <li key={problem.title} className="flex gap-4 rounded-xl border-l-4 border-amber-500 bg-white p-5 shadow-sm">
            <Icon name="alert" className="mt-0.5 size-6 shrink-0 text-amber-700" />
            <div>
              <h3 className="text-lg font-bold text-brand-900">{problem.title}</h3>
              <p className="mt-1 text-slate-700">{problem.description}</p>
              {problem.solution ? (
                <p className="mt-3 text-slate-700">
                  <strong className="text-call-700">Solution: </strong>
                  {problem.solution}
                </p>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}
