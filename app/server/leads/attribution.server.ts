import type { contactRequests } from "./schema.server.ts";
import { sitePaths } from "~/content/site-pages.ts";
import {
  ATTRIBUTION_TEXT_MAX,
  attributionFields,
  campaignFields,
  CLICK_ID_MAX,
  clickIdFields,
  type AttributionField,
} from "~/lib/site-events.ts";

/** Each attribution field and the contact_requests column it is stored in. */
export const attributionColumns = {
  landing_path: "landingPath",
  referrer_host: "referrerHost",
  utm_source: "utmSource",
  utm_medium: "utmMedium",
  utm_campaign: "utmCampaign",
  utm_term: "utmTerm",
  utm_content: "utmContent",
  gclid: "gclid",
  gbraid: "gbraid",
  wbraid: "wbraid",
  msclkid: "msclkid",
  fbclid: "fbclid",
} as const satisfies Record<AttributionField, keyof typeof contactRequests._.columns>;

export type LeadAttribution = Record<(typeof attributionColumns)[AttributionField], string | null>;

const knownPaths = new Set<string>(sitePaths);
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;
const HOST_NAME = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/;
const CLICK_ID = /^[\w.~-]+$/;
const isClickId = (field: AttributionField) => (clickIdFields as readonly string[]).includes(field);

/** A field's value as kept, or null: unknown, oversized or malformed values are dropped, never an error. */
function clean(field: AttributionField, raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const value = raw.trim();
  const max = isClickId(field) ? CLICK_ID_MAX : ATTRIBUTION_TEXT_MAX;
  if (value === "" || value.length > max || UNPRINTABLE.test(value)) return null;
  if (field === "landing_path") return knownPaths.has(value) ? value : null;
  if (field === "referrer_host") return HOST_NAME.test(value.toLowerCase()) ? value.toLowerCase() : null;
  if (isClickId(field)) return CLICK_ID.test(value) ? value : null;
  return value;
}

/** The page a form was posted from, and its query string, from the Referer header (sent without scripts too). */
function refererPage(referer: string | null): { path: string; query: URLSearchParams } | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    return { path: url.pathname.replace(/(.)\/+$/, "$1"), query: url.searchParams };
  } catch {
    return null;
  }
}

/**
 * Takes the visit's attribution out of a lead's fields (JSON body or hidden form fields) and returns the rest for
 * the lead's own schema. Without a landing path (a form posted without scripts), the Referer's path and its
 * campaign values stand in. Under Global Privacy Control the ad click ids are not kept: they exist to be sent
 * back to an ad network, which would be sharing (docs/decisions/070).
 */
export function takeAttribution(
  fields: Record<string, unknown>,
  referer: string | null,
  globalPrivacyControl: boolean,
): { attribution: LeadAttribution; rest: Record<string, unknown> } {
  const rest = { ...fields };
  const given: Partial<Record<AttributionField, string | null>> = {};
  for (const field of attributionFields) {
    if (!(field in rest)) continue;
    given[field] = clean(field, rest[field]);
    delete rest[field];
  }
  const page = given.landing_path ? null : refererPage(referer);
  if (page) {
    given.landing_path = clean("landing_path", page.path);
    for (const field of [...campaignFields, ...clickIdFields]) given[field] ??= clean(field, page.query.get(field));
  }
  const attribution = Object.fromEntries(
    attributionFields.map((field) => [
      attributionColumns[field],
      globalPrivacyControl && isClickId(field) ? null : (given[field] ?? null),
    ]),
  ) as LeadAttribution;
  return { attribution, rest };
}

/** Labels for people: campaign values and click ids keep the names ad platforms use for them. */
const LABELS: Record<keyof LeadAttribution, string> = {
  landingPath: "Landing page",
  referrerHost: "Came from",
  utmSource: "utm_source",
  utmMedium: "utm_medium",
  utmCampaign: "utm_campaign",
  utmTerm: "utm_term",
  utmContent: "utm_content",
  gclid: "gclid",
  gbraid: "gbraid",
  wbraid: "wbraid",
  msclkid: "msclkid",
  fbclid: "fbclid",
};

/** How the visitor found the site, as label/value pairs of the values that are known (email, lead page). */
export function describeAttribution(row: LeadAttribution): [label: string, value: string][] {
  return attributionFields.flatMap((field) => {
    const value = row[attributionColumns[field]];
    return value ? [[LABELS[attributionColumns[field]], value] as [string, string]] : [];
  });
}
