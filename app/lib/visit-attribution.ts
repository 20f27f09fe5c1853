import {
  ATTRIBUTION_TEXT_MAX,
  attributionFields,
  campaignFields,
  CLICK_ID_MAX,
  clickIdFields,
  VISIT_STORAGE_KEY,
  type Attribution,
} from "./site-events.ts";

/** What keepVisitAttribution needs: constants of site-events.ts, passed in as plain values. */
export interface VisitSettings {
  storageKey: string;
  queryFields: readonly string[];
  textMax: number;
  clickIdMax: number;
}

export const visitSettings: VisitSettings = {
  storageKey: VISIT_STORAGE_KEY,
  queryFields: [...campaignFields, ...clickIdFields],
  textMax: ATTRIBUTION_TEXT_MAX,
  clickIdMax: CLICK_ID_MAX,
};

/**
 * The visit's attribution: the first page of a visit keeps its path, the host it came from and its query's
 * campaign values and click ids in sessionStorage (gone when the tab closes); later pages read it back. Empty
 * when storage is disabled: the counts then carry no source. Self-contained: the inline scripts carry it
 * serialised with Function#toString.
 */
export function keepVisitAttribution(doc: Document, win: Window, settings: VisitSettings): Record<string, string> {
  const visit: Record<string, string> = {};
  try {
    const stored = win.sessionStorage.getItem(settings.storageKey);
    if (stored) return JSON.parse(stored) as Record<string, string>;
    const query = new URLSearchParams(win.location.search);
    visit.landing_path = win.location.pathname;
    const referrer = doc.referrer ? new URL(doc.referrer) : null;
    if (referrer && referrer.host !== win.location.host) visit.referrer_host = referrer.hostname;
    for (const name of settings.queryFields) {
      const value = query.get(name)?.trim();
      const max = name.startsWith("utm_") ? settings.textMax : settings.clickIdMax;
      if (value && value.length <= max) visit[name] = value;
    }
    win.sessionStorage.setItem(settings.storageKey, JSON.stringify(visit));
  } catch {
    // Storage may be disabled.
  }
  return visit;
}

/**
 * The visit's attribution as kept by the inline listener, to send with a lead. Empty when storage is
 * unavailable: the server then falls back on the Referer.
 */
export function visitAttribution(): Attribution {
  try {
    const stored = JSON.parse(sessionStorage.getItem(VISIT_STORAGE_KEY) ?? "{}") as Record<string, unknown>;
    return Object.fromEntries(
      attributionFields.flatMap((field) => (typeof stored[field] === "string" ? [[field, stored[field]]] : [])),
    );
  } catch {
    return {};
  }
}
