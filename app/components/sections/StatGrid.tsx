import { Section, type SectionComponentProps } from "~/components/sections/Section.tsx";

/** Headline figures as cards: a large value over its label. */
export function StatGrid({ heading, stats, tone }: SectionComponentProps<"stats">) {
  return (
    <Section heading={heading} tone={tone}>
      <ul className="mt-10 grid grid-cols-2 gap-4 sm:gap-6 lg:grid-cols-4">
        {stats.map((stat) => (
          <li key={stat.label} className="rounded-2xl bg-brand-700 px-4 py-8 text-center text-white shadow-sm">
            <p className="text-4xl font-extrabold">{stat.value}</p>
            <p className="mt-2 font-semibold text-brand-100">{stat.label}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
