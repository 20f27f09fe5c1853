import { createHash, randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { PublicSiteConfig } from "~/config/site.ts";

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g;
const DATA_BLOCK_TYPE = /\stype="application\/(ld\+)?json"/;
const INLINE_STYLE = /<style[^>]*>([\s\S]*?)<\/style>/g;

const hashSource = (body: string) => `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`;

/** CSP hash sources for every inline script in a prerendered page (JSON data blocks don't execute). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", body = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (DATA_BLOCK_TYPE.test(attributes)) continue;
    hashes.add(hashSource(body));
  }
  return [...hashes];
}

/** CSP hash sources for every <style> element in a prerendered page (the site's inlined CSS). */
export function inlineStyleHashes(html: string): string[] {
  return [...new Set(Array.from(html.matchAll(INLINE_STYLE), ([, body = ""]) => hashSource(body)))];
}

/** A response's nonce covers its inline style as well as its inline scripts. */
const isNonce = (source: string) => source.startsWith("'nonce-");

const GOOGLE_ANALYTICS_ORIGINS = [
  "https://www.googletagmanager.com",
  "https://*.google-analytics.com",
  "https://*.analytics.google.com",
];

function originOf(url: string | undefined): string[] {
  return url ? [new URL(url).origin] : [];
}

/**
 * The Content-Security-Policy for one HTML response. `scriptSources` is the response's nonce
 * or the page's script hashes; `styleSources` the page's style hashes, or by default the nonce.
 * Third-party origins appear only when the operator configured them.
 */
export function contentSecurityPolicy(
  config: PublicSiteConfig,
  scriptSources: string[],
  styleSources: string[] = scriptSources.filter(isNonce),
): string {
  const analytics = config.ga4MeasurementId ? GOOGLE_ANALYTICS_ORIGINS : [];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...scriptSources, ...(config.ga4MeasurementId ? [GOOGLE_ANALYTICS_ORIGINS[0]!] : [])],
    "style-src": ["'self'", ...styleSources],
    "img-src": ["'self'", "data:", ...analytics],
    "font-src": ["'self'"],
    "connect-src": [
      "'self'",
      ...originOf(config.geolocation.reverseGeocodeUrl),
      ...originOf(config.geolocation.ipLookupUrl),
      ...analytics,
    ],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'none'"],
    "object-src": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(" ")}`)
    .join("; ");
}

/**
 * Server-rendered responses (form results, 404s, the console) get a fresh nonce for their inline scripts,
 * handed to React Router in the load context. In development Vite injects its own inline scripts and
 * styles, so there is no CSP there.
 */
export function nonceForRenderedResponses(config: PublicSiteConfig, mode: "production" | "development") {
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    if (mode === "production") res.set("Content-Security-Policy", contentSecurityPolicy(config, [`'nonce-${nonce}'`]));
    next();
  };
}
