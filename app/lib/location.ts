/**
 * Location detection for the "Serving {city}, {state}" line, as pure logic: every browser
 * facility is passed in, so the fallback chain runs in unit tests without a browser.
 *
 * Order: browser geolocation → reverse geocoding → IP lookup → the generic line.
 * Any failure moves on to the next source silently; the visitor never sees an error.
 */

export interface DetectedLocation {
  city: string;
  /** Missing when the source knows the city but not its state or region. */
  state?: string;
}

export type LocationLineState =
  { status: "loading" } | { status: "found"; location: DetectedLocation } | { status: "unknown" };

const LOCATION_LOADING_TEXT = "Detecting Your Location...";
export const LOCATION_GENERIC_TEXT = "Serving Your Local Area";

export function locationLineText(state: LocationLineState): string {
  if (state.status === "loading") return LOCATION_LOADING_TEXT;
  if (state.status === "unknown") return LOCATION_GENERIC_TEXT;
  const { city, state: region } = state.location;
  return region ? `Serving ${city}, ${region}` : `Serving ${city}`;
}

/** Geolocation waits 8 s at most, at low accuracy, and a cached position up to 5 minutes old is fine. */
export const GEOLOCATION_OPTIONS: PositionOptions = {
  timeout: 8000,
  enableHighAccuracy: false,
  maximumAge: 300_000,
};

/** How long one lookup request may take before the chain moves on. */
const LOOKUP_TIMEOUT_MS = 5000;

export const LOCATION_CACHE_KEY = "plumbline:location";

export interface LocationConfig {
  reverseGeocodeUrl: string | undefined;
  ipLookupUrl: string | undefined;
  /** true: ask for the position even when the visitor has not granted it yet (shows the browser prompt). */
  promptOnLoad: boolean;
}

export interface LocationEnvironment {
  config: LocationConfig;
  fetch: typeof fetch;
  geolocation?: Pick<Geolocation, "getCurrentPosition">;
  permissions?: Pick<Permissions, "query">;
  /** sessionStorage, when the browser lets the page use it. */
  storage?: Pick<Storage, "getItem" | "setItem">;
  lookupTimeoutMs?: number;
}

/** Runs the whole chain once per session: a cached answer (found or not) is reused without any request. */
export async function detectLocation(environment: LocationEnvironment): Promise<DetectedLocation | null> {
  const cached = readCache(environment.storage);
  if (cached !== undefined) return cached;
  const location = (await locationFromDevice(environment)) ?? (await locationFromIp(environment));
  writeCache(environment.storage, location);
  return location;
}

async function locationFromDevice(environment: LocationEnvironment): Promise<DetectedLocation | null> {
  const { config, geolocation } = environment;
  if (!geolocation || !config.reverseGeocodeUrl) return null;
  if (!config.promptOnLoad && !(await isGeolocationGranted(environment.permissions))) return null;
  const position = await currentPosition(geolocation);
  if (!position) return null;
  const url = new URL(config.reverseGeocodeUrl);
  url.searchParams.set("latitude", String(position.coords.latitude));
  url.searchParams.set("longitude", String(position.coords.longitude));
  url.searchParams.set("localityLanguage", "en");
  const body = await fetchJson(environment, url.href);
  if (!body) return null;
  return toLocation(placeName(body.city) ?? placeName(body.locality), body.principalSubdivision);
}

async function locationFromIp(environment: LocationEnvironment): Promise<DetectedLocation | null> {
  if (!environment.config.ipLookupUrl) return null;
  const body = await fetchJson(environment, environment.config.ipLookupUrl);
  if (!body) return null;
  return toLocation(body.city, body.region);
}

async function isGeolocationGranted(permissions: LocationEnvironment["permissions"]): Promise<boolean> {
  if (!permissions) return false;
  try {
    return (await permissions.query({ name: "geolocation" })).state === "granted";
  } catch {
    return false;
  }
}

function currentPosition(geolocation: Pick<Geolocation, "getCurrentPosition">): Promise<GeolocationPosition | null> {
  return new Promise((resolve) => {
    try {
      geolocation.getCurrentPosition(resolve, () => resolve(null), GEOLOCATION_OPTIONS);
    } catch {
      resolve(null);
    }
  });
}

/** A JSON object from a GET, or null for a network error, timeout, non-ok status or a body that is not an object. */
async function fetchJson(environment: LocationEnvironment, url: string): Promise<Record<string, unknown> | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), environment.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS);
  try {
    const response = await environment.fetch(url, {
      signal: controller.signal,
      headers: { Accept: "application/json" },
      credentials: "omit",
      referrerPolicy: "no-referrer",
    });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

const MAX_PLACE_NAME_LENGTH = 60;

/** A place name fit to show: a non-empty single-line string of reasonable length, or undefined. */
function placeName(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const name = value.replace(/[\p{Cc}\p{Cf}]/gu, "").trim();
  return name !== "" && name.length <= MAX_PLACE_NAME_LENGTH ? name : undefined;
}

function toLocation(cityValue: unknown, stateValue: unknown): DetectedLocation | null {
  const city = placeName(cityValue);
  if (!city) return null;
  const state = placeName(stateValue);
  return state ? { city, state } : { city };
}

/** undefined: nothing cached (or unreadable); null: the chain already ran and found nothing. */
function readCache(storage: LocationEnvironment["storage"]): DetectedLocation | null | undefined {
  try {
    const raw = storage?.getItem(LOCATION_CACHE_KEY);
    if (raw == null) return undefined;
    const value: unknown = JSON.parse(raw);
    if (value === null) return null;
    if (typeof value !== "object") return undefined;
    const { city, state } = value as Record<string, unknown>;
    return toLocation(city, state) ?? undefined;
  } catch {
    return undefined;
  }
}

function writeCache(storage: LocationEnvironment["storage"], location: DetectedLocation | null): void {
  try {
    storage?.setItem(LOCATION_CACHE_KEY, JSON.stringify(location));
  } catch {
    // Storage full or blocked: the next page simply detects again.
  }
}
