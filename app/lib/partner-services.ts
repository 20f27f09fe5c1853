import { landingPages } from "~/content/landing-pages.ts";

/** The services the site offers, as its service pages name them: what a partner can be matched on. */
export const PARTNER_SERVICES: readonly string[] = landingPages
  .filter((page) => page.seo.path !== "/about")
  .map((page) => page.breadcrumb);
