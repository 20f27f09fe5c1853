import type { IconName } from "~/components/Icon.tsx";
import type { PhonePlacement } from "~/components/PhoneLink.tsx";

/** Shapes of the typed copy that section components render. Copy may contain `{company}`. */

export interface CallToAction {
  label: string;
  /** A shorter label for small screens. */
  shortLabel?: string;
  placement: PhonePlacement;
}

export interface HeroContent {
  title: string;
  lead: string;
  badges: { icon: IconName; label: string }[];
  cta: CallToAction;
  footnote?: string;
  illustration: { caption: string };
}

export interface ServiceCard {
  icon: IconName;
  title: string;
  description: string;
  price?: string;
  /** A call button on this card only. */
  cta?: CallToAction;
}

export interface BenefitCard {
  icon: IconName;
  title: string;
  description: string;
}

export interface Testimonial {
  heading: string;
  quote: string;
  /** First name and last initial. */
  name: string;
  location: string;
  rating: 1 | 2 | 3 | 4 | 5;
}

export interface SectionHeading {
  title: string;
  intro?: string;
}
