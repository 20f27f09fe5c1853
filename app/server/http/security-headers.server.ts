import type { PublicSiteConfig } from "~/config/site.ts";

/** Headers for every response. The CSP is per HTML response and set separately. */
export function baseSecurityHeaders(config: PublicSiteConfig): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    // Geolocation is used by the location line on two pages, and only by this site itself.
    "Permissions-Policy":
      "geolocation=(self), camera=(), microphone=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()",
    ...(config.siteUrl.startsWith("https://")
      ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" }
      : {}),
  };
}
