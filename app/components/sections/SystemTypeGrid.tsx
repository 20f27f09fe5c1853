import { Section, type SectionComponentProps } from "~/components/sections/Section.tsx";

/** The kinds of system or fixture serviced, with what each suits best. */
export function SystemTypeGrid({ heading, types, tone }: SectionComponentProps<"system-types">) {
  return (
    <Section heading={heading} tone={tone}>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {types.map((type) => (
          <li
            key={type.title}
            className="flex flex-col rounded-2xl border-t-4 border-brand-700 bg-white p-6 shadow-sm ring-1 ring-slate-200"
          >
            <h3 className="text-lg font-bold text-brand-900">{type.title}</h3>
            <p className="mt-2 flex-1 text-slate-700">{type.description}</p>
            {type.bestFor ? (
              <p className="mt-4 rounded-lg bg-brand-50 px-3 py-2 text-sm font-semibold text-brand-900">
                Best for: {type.bestFor}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}
