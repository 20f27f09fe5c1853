import type { ReactNode } from "react";
import { HeroIllustration } from "~/components/HeroIllustration.tsx";
import { Icon } from "~/components/Icon.tsx";
import { CallButton } from "~/components/ui/CallButton.tsx";
import type { HeroContent } from "~/content/types.ts";

/** The first section of a page: headline, badges, the main call button and the illustration. */
export function Hero({ content, aside }: { content: HeroContent; /** Shown above the headline. */ aside?: ReactNode }) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 md:grid-cols-2 md:py-20">
        {/* min-w-0: a long line above the headline truncates instead of widening the column. */}
        <div className="min-w-0">
          {aside}
          <h1 className="text-4xl font-extrabold tracking-tight text-brand-900 sm:text-5xl">{content.title}</h1>
          <p className="mt-4 text-lg text-slate-700">{content.lead}</p>
          <ul className="mt-6 flex flex-wrap gap-3">
            {content.badges.map((badge) => (
              <li
                key={badge.label}
                className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-semibold text-brand-900 shadow-sm ring-1 ring-brand-100"
              >
                <Icon name={badge.icon} className="size-4 text-brand-700" />
                {badge.label}
              </li>
            ))}
          </ul>
          {content.cta ? (
            <CallButton placement={content.cta.placement} size="lg" className="mt-8">
              {content.cta.label}
            </CallButton>
          ) : null}
          {content.footnote ? <p className="mt-4 text-sm font-medium text-slate-700">{content.footnote}</p> : null}
        </div>
        <figure className="relative">
          <HeroIllustration className="h-auto w-full" />
          <figcaption className="absolute -bottom-4 left-4 rounded-xl bg-brand-700 px-5 py-3 text-lg font-bold text-white shadow-lg">
            {content.illustration.caption}
          </figcaption>
        </figure>
      </div>
    </section>
  );
}
