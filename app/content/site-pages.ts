/**
 * Every public page of the site and the route module that renders it: the one list the route table,
 * prerendering, the sitemap, the counted events' allow-list and the tests read.
 */
export const sitePages = [
  { path: "/", route: "routes/home.tsx" },
  { path: "/about", route: "routes/about.tsx" },
  { path: "/contact", route: "routes/contact.tsx" },
  { path: "/privacy", route: "routes/privacy.tsx" },
  { path: "/ccpa-privacy", route: "routes/ccpa-privacy.tsx" },
  { path: "/do-not-sell", route: "routes/do-not-sell.tsx" },
  { path: "/allrepairs", route: "routes/landing/allrepairs.tsx" },
  { path: "/toilet-services", route: "routes/landing/toilet-services.tsx" },
  { path: "/water-heater-services", route: "routes/landing/water-heater-services.tsx" },
  { path: "/drain-services", route: "routes/landing/drain-services.tsx" },
  { path: "/sewer-services", route: "routes/landing/sewer-services.tsx" },
  { path: "/well-pump-services", route: "routes/landing/well-pump-services.tsx" },
  { path: "/faucet-services", route: "routes/landing/faucet-services.tsx" },
  { path: "/gas-line-services", route: "routes/landing/gas-line-services.tsx" },
  { path: "/water-softener-services", route: "routes/landing/water-softener-services.tsx" },
  { path: "/handyman-plumber", route: "routes/landing/handyman-plumber.tsx" },
  { path: "/hvac-services", route: "routes/landing/hvac-services.tsx" },
  { path: "/quiz", route: "routes/quiz.tsx" },
  { path: "/terms", route: "routes/terms.tsx" },
  { path: "/plumbers", route: "routes/plumbers.tsx" },
] as const;

/** Every page's path, in the list's order. The sitemap lists exactly these. */
export const sitePaths = sitePages.map((page) => page.path);
