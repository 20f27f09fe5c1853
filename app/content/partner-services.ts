import { landingPages } from "./landing-pages.ts";

/** The services the site offers, as its service pages name them: what a partner can be matched on. */
export const PARTNER_SERVICES: readonly string[] = landingPages
  .filter((page) => page.seo.path !== "/about")
  .map((page) => page.breadcrumb);

/** The site's own name for a service a visitor typed or chose, whatever its case; null when it is not one of them. */
export function knownService(service: string): string | null {
  const typed = service.trim().toLowerCase();
  return PARTNER_SERVICES.find((name) => name.toLowerCase() === typed) ?? null;
}

/** The service a landing page offers ("/drain-services": its service's name); null for any other page. */
export function serviceOfLandingPage(path: string | null): string | null {
  if (!path) return null;
  const page = landingPages.find((landing) => landing.seo.path === path && landing.seo.path !== "/about");
  return page ? page.breadcrumb : null;
}
