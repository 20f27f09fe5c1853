import { attributionFields, VISIT_STORAGE_KEY, type Attribution } from "./site-events.ts";

/**
 * The visit's attribution, kept in sessionStorage by the inline listener on the visit's first page, to send with
 * a lead. Empty when storage is unavailable: the server then falls back on the Referer.
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
