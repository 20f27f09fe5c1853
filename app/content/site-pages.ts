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

/**
 * Pages opened by a signed link, whose address is someone's access (a partner's referral, their monthly
 * statement): served by the route module, never indexed, never prerendered. Because the address is the access,
 * no tracking script loads on them and no view is counted (GA4 would receive the address as the page's
 * location), and the request log names the route, never the token. A page added here has all of that.
 */
export const signedLinkPages = [
  // A partner's link to answer one referral: single-use, server-rendered.
  { prefix: "/r/", route: "routes/referral.tsx" },
  // A partner's monthly statement, by the signed link in its email: printable.
  { prefix: "/statements/", route: "routes/statement.tsx" },
  // A partner's link to dispute a call they were charged for, from the email after the call.
  { prefix: "/d/", route: "routes/call-dispute.tsx" },
] as const;

/**
 * The route pattern of a signed-link page (`/r/:token`) for a path under one, or undefined for any other path;
 * matched as routes match (any case, percent-encoded or not).
 */
export function signedLinkRoute(pathname: string): string | undefined {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape is matched as it was written.
  }
  const path = decoded.toLowerCase();
  const page = signedLinkPages.find(({ prefix }) => path.startsWith(prefix));
  return page ? `${page.prefix}:token` : undefined;
}
