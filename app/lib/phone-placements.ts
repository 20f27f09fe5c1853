/**
 * Where a call link sits on the page: the spec's placement labels, sent as the GA event label and counted by
 * the site's own analytics, which accepts exactly these.
 */
export const phonePlacements = [
  "header_banner",
  "header",
  "hero",
  "drain_cleaning",
  "services",
  "contact_hero",
  "sticky_bottom_button",
  "about_cta",
  "hero_drain",
  "faqs_section",
  "hvac_hero",
  "quiz_results",
  "quiz_footer",
  "plumber-hero",
  "plumber-list",
  "plumber-list-bottom",
] as const;

export type PhonePlacement = (typeof phonePlacements)[number];
