import { sitePaths } from "~/content/site-pages.ts";
import { phonePlacements } from "~/lib/phone-placements.ts";
import { ATTRIBUTION_TEXT_MAX, siteEventKinds, type SiteEventKind } from "~/lib/site-events.ts";

/** One counted event: the fixed shape the page sends, and all that is ever kept of it. */
export interface SiteEvent {
  kind: SiteEventKind;
  path: string;
  /** Calls only. */
  placement: string;
  source: string;
  medium: string;
  campaign: string;
}

/** The largest body accepted: the fixed fields, with three 100-character values of multi-byte text. */
export const SITE_EVENT_BODY_LIMIT_BYTES = 1024;

const knownPaths = new Set<string>(sitePaths);
const knownPlacements = new Set<string>(phonePlacements);
const knownKinds = new Set<string>(siteEventKinds);
const allowedKeys = new Set(["kind", "path", "placement", "source", "medium", "campaign"]);
/** Printable text only: no control characters, no lone surrogates. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

type SiteEventParse = { ok: true; event: SiteEvent } | { ok: false; status: 400 | 422; error: string };

const refuse = (status: 400 | 422, error: string): SiteEventParse => ({ ok: false, status, error });

/**
 * Checks a beacon body: a JSON object with only the fixed keys, a known kind, a known page path, a known
 * placement for calls (and none for views), and source/medium/campaign as short printable text. Unknown paths
 * are refused rather than stored, so the table cannot be flooded with made-up pages.
 */
export function parseSiteEvent(text: string): SiteEventParse {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(400, "The body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return refuse(400, "Send a JSON object.");
  const fields = body as Record<string, unknown>;
  if (Object.keys(fields).some((key) => !allowedKeys.has(key))) return refuse(422, "Unexpected field.");
  const { kind, path, placement } = fields;
  if (typeof kind !== "string" || !knownKinds.has(kind)) return refuse(422, "Unknown event kind.");
  if (typeof path !== "string" || !knownPaths.has(path)) return refuse(422, "Unknown page.");
  if (kind === "call" ? typeof placement !== "string" || !knownPlacements.has(placement) : placement !== undefined) {
    return refuse(422, "Unknown placement.");
  }
  const texts: Record<"source" | "medium" | "campaign", string> = { source: "", medium: "", campaign: "" };
  for (const name of ["source", "medium", "campaign"] as const) {
    const value = fields[name];
    if (value === undefined) continue;
    if (typeof value !== "string" || value.length > ATTRIBUTION_TEXT_MAX || UNPRINTABLE.test(value)) {
      return refuse(422, `Invalid ${name}.`);
    }
    texts[name] = value.trim();
  }
  return {
    ok: true,
    event: { kind: kind as SiteEventKind, path, placement: kind === "call" ? (placement as string) : "", ...texts },
  };
}
