import { Section, type SectionComponentProps } from "~/components/sections/Section.tsx";

/** The equipment brands the pros service, as plain names. */
export function BrandList({ heading, brands, tone }: SectionComponentProps<"brands">) {
  return (
    <Section heading={heading} tone={tone}>
      <ul className="mx-auto mt-10 grid max-w-4xl grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {brands.map((brand) => (
          <li
            key={brand}
            className="rounded-lg bg-white px-4 py-3 text-center font-semibold text-brand-900 ring-1 ring-slate-200"
          >
            {brand}
          </li>
        ))}
      </ul>
    </Section>
  );
}
