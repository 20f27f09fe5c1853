/**
 * The site's own counting of page views and call clicks (docs/decisions/070): what the page sends and the
 * server accepts. Shared by the inline listener (PhoneLink.tsx), the contact form and the server.
 */

/** Where the page sends its events, with navigator.sendBeacon. */
export const SITE_EVENTS_ENDPOINT = "/api/events";

/** A page view, a call link's click, and a form start: the first input in a contact form on a page view. */
export const siteEventKinds = ["view", "call", "form"] as const;
export type SiteEventKind = (typeof siteEventKinds)[number];

/** The most characters kept of a source, medium, campaign, term, content value, landing path or referrer host. */
export const ATTRIBUTION_TEXT_MAX = 100;
/** Ad click ids are longer than campaign names; Google's and Meta's stay well under this. */
export const CLICK_ID_MAX = 200;

/** The visit's campaign values, read from the landing page's query string. */
export const campaignFields = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;
/** Ad click ids, read from the landing page's query string: what an ad network needs to match a conversion. */
export const clickIdFields = ["gclid", "gbraid", "wbraid", "msclkid", "fbclid"] as const;

/**
 * A visit's attribution, as kept in sessionStorage and sent with a lead (JSON fields, or hidden form fields):
 * the first page of the visit, the host it came from, and its query's campaign values and click ids.
 */
export const attributionFields = ["landing_path", "referrer_host", ...campaignFields, ...clickIdFields] as const;
export type AttributionField = (typeof attributionFields)[number];
export type Attribution = Partial<Record<AttributionField, string>>;

/** The sessionStorage key of the visit's attribution. */
export const VISIT_STORAGE_KEY = "plumbline:visit";

/** Marks a form whose first input on a page view is counted as a form start. */
export const COUNTED_FORM_ATTRIBUTE = "data-counted-form";

/** Dispatched on document by the app after a client-side navigation, so the listener counts that page too. */
export const PAGE_VIEW_EVENT = "plumbline:pageview";
