import { PlumberAvatar } from "~/components/PlumberAvatar.tsx";
import { StarRating } from "~/components/ui/StarRating.tsx";
import { SectionHeader } from "~/components/sections/SectionHeader.tsx";
import { CallButton } from "~/components/ui/CallButton.tsx";
import type { CallToAction, PlumberProfile, SectionHeading } from "~/content/types.ts";

interface PlumberListProps {
  heading: SectionHeading;
  plumbers: PlumberProfile[];
  /** The call link on every card. */
  cta: CallToAction;
  /** A line under the cards. */
  note?: string;
}

/** Plumber cards: avatar, name, rating, description, specialties and a call link each. */
export function PlumberList({ heading, plumbers, cta, note }: PlumberListProps) {
  return (
    <section aria-labelledby="plumbers-heading" className="py-16">
      <div className="mx-auto max-w-6xl px-4">
        <SectionHeader heading={heading} id="plumbers-heading" />
        <ul className="mt-10 grid gap-6 md:grid-cols-2">
          {plumbers.map((plumber) => (
            <li
              key={plumber.id}
              data-testid="plumber-card"
              className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:flex-row"
            >
              <PlumberAvatar tone={plumber.image} className="size-20 shrink-0" />
              <div className="flex flex-1 flex-col">
                <h3 className="text-xl font-bold text-brand-900">{plumber.name}</h3>
                <div className="mt-1 flex items-center gap-2">
                  <StarRating rating={plumber.rating} />
                  <span className="font-semibold text-slate-800">{plumber.rating.toFixed(1)}</span>
                </div>
                <p className="mt-3 text-slate-700">{plumber.description}</p>
                <ul aria-label={`${plumber.name}'s specialties`} className="mt-4 flex flex-wrap gap-2">
                  {plumber.specialties.map((specialty) => (
                    <li
                      key={specialty}
                      className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-900"
                    >
                      {specialty}
                    </li>
                  ))}
                </ul>
                <CallButton placement={cta.placement} className="mt-5 self-start">
                  {cta.label}
                </CallButton>
              </div>
            </li>
          ))}
        </ul>
        {note ? <p className="mx-auto mt-8 max-w-2xl text-center text-sm text-slate-600">{note}</p> : null}
      </div>
    </section>
  );
}
