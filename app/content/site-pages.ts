/** Every page of the site, in the order of the site's route table. The sitemap lists exactly these. */
export const sitePaths = [
  "/",
  "/about",
  "/contact",
  "/privacy",
  "/ccpa-privacy",
  "/do-not-sell",
  "/allrepairs",
  "/toilet-services",
  "/water-heater-services",
  "/drain-services",
  "/sewer-services",
  "/well-pump-services",
  "/faucet-services",
  "/gas-line-services",
  "/water-softener-services",
  "/handyman-plumber",
  "/hvac-services",
  "/quiz",
  "/terms",
  "/plumbers",
] as const;

export type SitePath = (typeof sitePaths)[number];
