/**
 * The public operator settings, shared by server and browser.
 * They are read from the environment by env.server.ts and compiled in at build time (vite `define`),
 * because every page is prerendered: the HTML and the scripts must agree. `npm start` rebuilds.
 */
export interface PublicSiteConfig {
  phone: { display: string; e164: string };
  companyName: string;
  bannerText: string;
  legalOperator: { name: string; address: string; email: string };
  ga4MeasurementId: string | undefined;
  siteUrl: string;
  contactConsentText: string;
  geolocation: {
    reverseGeocodeUrl: string | undefined;
    ipLookupUrl: string | undefined;
    promptOnLoad: boolean;
  };
  /** Visits that arrive from a campaign are shown a tracking number from the pool (set only when there is one). */
  callTracking?: true;
}

declare const __SITE_CONFIG__: PublicSiteConfig;

export const siteConfig: PublicSiteConfig = __SITE_CONFIG__;
