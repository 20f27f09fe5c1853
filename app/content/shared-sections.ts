import { homeContactHeading, whyChooseUs, whyChooseUsHeading } from "~/content/home.ts";
import type { CallToAction, HeroContent, LandingSection } from "~/content/types.ts";

/** The home page's why-choose-us cards, closing the plumbing landing pages too. */
export const whyChooseUsSection: LandingSection = { kind: "benefits", heading: whyChooseUsHeading, cards: whyChooseUs };

/** The home page's call band, the last section of most landing pages. */
export const speakWithAProSection: LandingSection = {
  kind: "call",
  heading: homeContactHeading,
  placement: "contact_hero",
};

/** The button under most landing pages' service grids. */
export const freeEstimateCta: CallToAction = {
  label: "Call for a Free Estimate",
  shortLabel: "Call Now",
  placement: "services",
};

interface ServiceHeroCopy {
  title: string;
  lead: string;
  cta: CallToAction;
  /** The label on the illustration. */
  caption: string;
  badges?: HeroContent["badges"];
  footnote?: string;
  showLocation?: true;
}

/** A landing page's hero: its own words, with the emergency and rating badges and the promise line unless it says otherwise. */
export function serviceHero({
  caption,
  showLocation,
  badges = [
    { icon: "clock", label: "24/7 Emergency Service" },
    { icon: "star", label: "4.9/5 Rating (500+ Reviews)" },
  ],
  footnote = "Free estimates • Same-day service • 100% satisfaction guarantee",
  ...copy
}: ServiceHeroCopy): LandingSection {
  return {
    kind: "hero",
    hero: { ...copy, badges, footnote, illustration: { caption } },
    ...(showLocation && { showLocation }),
  };
}
