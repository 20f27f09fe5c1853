/** The route module that renders every landing page from its content (app/content/landing-pages.ts). */
export const LANDING_PAGE_ROUTE = "routes/landing-page.tsx";

/**
 * Every public page of the site and the route module that renders it: the one list the route table,
 * prerendering, the sitemap, the counted events' allow-list and the tests read.
 */
export const sitePages = [
  { path: "/", route: "routes/home.tsx" },
  { path: "/about", route: LANDING_PAGE_ROUTE },
  { path: "/contact", route: "routes/contact.tsx" },
  { path: "/privacy", route: "routes/privacy.tsx" },
  { path: "/ccpa-privacy", route: "routes/ccpa-privacy.tsx" },
  { path: "/do-not-sell", route: "routes/do-not-sell.tsx" },
  { path: "/allrepairs", route: LANDING_PAGE_ROUTE },
  { path: "/toilet-services", route: LANDING_PAGE_ROUTE },
  { path: "/water-heater-services", route: LANDING_PAGE_ROUTE },
  { path: "/drain-services", route: LANDING_PAGE_ROUTE },
  { path: "/sewer-services", route: LANDING_PAGE_ROUTE },
  { path: "/well-pump-services", route: LANDING_PAGE_ROUTE },
  { path: "/faucet-services", route: LANDING_PAGE_ROUTE },
  { path: "/gas-line-services", route: LANDING_PAGE_ROUTE },
  { path: "/water-softener-services", route: LANDING_PAGE_ROUTE },
  { path: "/handyman-plumber", route: LANDING_PAGE_ROUTE },
  { path: "/hvac-services", route: LANDING_PAGE_ROUTE },
  { path: "/quiz", route: "routes/quiz.tsx" },
  { path: "/terms", route: "routes/terms.tsx" },
  { path: "/plumbers", route: "routes/plumbers.tsx" },
] as const;

/** Every page's path, in the list's order. The sitemap lists exactly these. */
export const sitePaths = sitePages.map((page) => page.path);
