import type { PublicSiteConfig } from "~/config/site.ts";
import { escapeHtml } from "../../lib/escape-html.ts";

/**
 * The answer to a browser whose form post hit the per-IP POST limit before reaching the app:
 * a plain page (no scripts, no styles, so nothing for the CSP to refuse) with the number to call.
 */
export function tooManyRequestsPage(config: PublicSiteConfig, backTo: string): string {
  const company = escapeHtml(config.companyName);
  const phone = escapeHtml(config.phone.display);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Too many requests | ${company}</title><meta name="robots" content="noindex"></head><body><main><h1>Too many requests</h1><p>We received too many requests from your connection. Please try again in a minute, or call us 24/7 at ${phone}.</p><p><a href="${escapeHtml(backTo)}">Go back</a></p></main></body></html>`;
}
