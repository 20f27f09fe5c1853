import { Icon } from "~/components/Icon.tsx";
import { SectionHeader } from "~/components/sections/SectionHeader.tsx";
import type { BenefitCard, SectionHeading } from "~/content/types.ts";

/** Reasons to choose the service: icon, title and a line each. */
export function BenefitGrid({ heading, cards }: { heading: SectionHeading; cards: BenefitCard[] }) {
  return (
    <section className="bg-slate-50 py-16">
      <div className="mx-auto max-w-6xl px-4">
        <SectionHeader heading={heading} />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {cards.map((card) => (
            <li key={card.title} className="flex gap-4 rounded-2xl bg-white p-6 shadow-sm">
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
      </div>
    </section>
  );
}
