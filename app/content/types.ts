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

/** The palette of a plumber's drawn avatar. */
export type AvatarTone = "blue" | "green" | "amber" | "slate";

/** A plumber card (spec §3). Every card calls the one shared number, so no phone is stored here. */
export interface PlumberProfile {
  id: 1 | 2 | 3 | 4;
  name: string;
  image: AvatarTone;
  rating: number;
  description: string;
  specialties: string[];
}

/**
 * A paragraph, or a bulleted list. Legal copy may contain `{company}`, `{operatorName}`,
 * `{operatorAddress}` and `{operatorEmail}`, and links written `[label](/path)` or `[label](mailto:…)`.
 */
export type LegalBlock = string | { list: string[] };

export interface LegalSection {
  title: string;
  blocks: LegalBlock[];
}

export interface LegalDocumentContent {
  title: string;
  /** Shown as "Last updated: …". */
  lastUpdated: string;
  /** A button-style link under the date. */
  action?: { label: string; to: string };
  intro: LegalBlock[];
  sections: LegalSection[];
}
