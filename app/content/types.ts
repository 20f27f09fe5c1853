import type { IconName } from "./icons.ts";
import type { PhonePlacement } from "~/lib/phone-placements.ts";
import type { PageChrome } from "~/lib/page-chrome.ts";
import type { FaqItem, PageSeo } from "~/lib/seo.ts";

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
  /** Pages whose story comes first, like /about, leave the call for later. */
  cta?: CallToAction;
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

/** A plumber card: name, photo, rating and specialties. Every card calls the one shared number, so no phone is stored here. */
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

/** A problem a visitor may recognise, with how it is fixed when the page says so. */
export interface ProblemItem {
  title: string;
  description: string;
  solution?: string;
}

/** A kind of system or fixture the pros work on, such as a jet pump or a tankless heater. */
export interface SystemType {
  title: string;
  description: string;
  /** What this kind suits best, shown as a short line. */
  bestFor?: string;
}

/** A page's title, description and path for its meta tags, canonical link and Open Graph tags. */
export interface ProcessStep {
  title: string;
  description: string;
}

export interface Stat {
  value: string;
  label: string;
}

/** A landing-page review: unlike the home carousel's testimonials, it has no heading but a relative date. */
export interface Review {
  /** First name and last initial. */
  name: string;
  location: string;
  rating: 1 | 2 | 3 | 4 | 5;
  /** Relative, like "2 weeks ago". */
  date: string;
  text: string;
}

/** One section of a landing page; `kind` picks the section component that renders it. */
export type LandingSection =
  | { kind: "hero"; hero: HeroContent; /** Shows the detected "Serving {city}, {state}" line. */ showLocation?: true }
  | { kind: "services"; heading: SectionHeading; cards: ServiceCard[]; cta?: CallToAction }
  | { kind: "benefits"; heading: SectionHeading; cards: BenefitCard[] }
  | { kind: "problems"; heading: SectionHeading; problems: ProblemItem[] }
  | { kind: "system-types"; heading: SectionHeading; types: SystemType[] }
  | { kind: "faq"; heading: SectionHeading; faqs: FaqItem[]; cta: CallToAction }
  | { kind: "reviews"; heading: SectionHeading; reviews: Review[] }
  | { kind: "process"; heading: SectionHeading; steps: ProcessStep[] }
  | { kind: "brands"; heading: SectionHeading; brands: string[] }
  | { kind: "stats"; heading: SectionHeading; stats: Stat[] }
  | { kind: "story"; heading: SectionHeading; paragraphs: string[] }
  | { kind: "emergency-notice"; heading: SectionHeading; steps: string[] }
  | { kind: "call"; heading: SectionHeading; placement: PhonePlacement };

/** What one kind of section holds, without its `kind`: the props of the component that renders it. */
export type SectionContent<K extends LandingSection["kind"]> = Omit<Extract<LandingSection, { kind: K }>, "kind">;

/** A whole page as data: a content module per page, one renderer for all. */
export interface LandingPage {
  seo: PageSeo;
  /** The page's name in the BreadcrumbList. */
  breadcrumb: string;
  /** Banner text or company name for this page only. */
  chrome?: Partial<PageChrome>;
  sections: LandingSection[];
}
