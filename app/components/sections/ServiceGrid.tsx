import { Icon } from "~/components/Icon.tsx";
import { CallButton } from "~/components/ui/CallButton.tsx";
import { Section, type SectionTone } from "~/components/sections/Section.tsx";
import type { CallToAction, SectionHeading, ServiceCard } from "~/content/types.ts";

interface ServiceGridProps {
  heading: SectionHeading;
  cards: ServiceCard[];
  /** The section's anchor, such as `services`. */
  id?: string;
  /** A call button under the grid. */
  cta?: CallToAction;
  tone?: SectionTone;
}

/** A grid of service cards with icon, title, description and an optional price label or call button. */
export function ServiceGrid({ heading, cards, id, cta, tone }: ServiceGridProps) {
  return (
    <Section heading={heading} id={id} tone={tone}>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {cards.map((card) => (
          <li key={card.title} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="inline-flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
              <Icon name={card.icon} />
            </span>
            <h3 className="mt-4 text-xl font-bold text-brand-900">{card.title}</h3>
            <p className="mt-2 flex-1 text-slate-700">{card.description}</p>
            {card.price ? <p className="mt-4 font-bold text-call-700">{card.price}</p> : null}
            {card.cta ? (
              <CallButton placement={card.cta.placement} className="mt-4">
                {card.cta.label}
              </CallButton>
            ) : null}
          </li>
        ))}
      </ul>
      {cta ? (
        <div className="mt-10 text-center">
          <CallButton placement={cta.placement} size="lg">
            {cta.shortLabel ? (
              <>
                <span className="sm:hidden">{cta.shortLabel}</span>
                <span className="hidden sm:inline">{cta.label}</span>
              </>
            ) : (
              cta.label
            )}
          </CallButton>
        </div>
      ) : null}
    </Section>
  );
}
