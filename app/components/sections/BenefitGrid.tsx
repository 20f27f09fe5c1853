import { Icon } from "~/components/Icon.tsx";
import { Section, type SectionTone } from "~/components/sections/Section.tsx";
import type { BenefitCard, SectionHeading } from "~/content/types.ts";

interface BenefitGridProps {
  heading: SectionHeading;
  cards: BenefitCard[];
  tone?: SectionTone;
}

/** Reasons to choose the service: icon, title and a line each. */
export function BenefitGrid({ heading, cards, tone = "muted" }: BenefitGridProps) {
  return (
    <Section heading={heading} tone={tone}>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {cards.map((card) => (
          <li key={card.title} className="flex gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-100">
            <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-700 text-white">
              <Icon name={card.icon} />
            </span>
            <div>
              <h3 className="text-lg font-bold text-brand-900">{card.title}</h3>
              <p className="mt-1 text-slate-700">{card.description}</p>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}
