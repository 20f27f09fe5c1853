import { describe, expect, it, vi } from "vitest";
import {
  detectLocation,
  GEOLOCATION_OPTIONS,
  LOCATION_CACHE_KEY,
  locationLineText,
  type LocationEnvironment,
} from "./location.ts";

const REVERSE_URL = "https://reverse.test/data/reverse-geocode-client";
const IP_URL = "https://ip.test/json/";

type Reply = { status?: number; body?: unknown } | "network-error" | "hang";

/** A fake browser: geolocation and permission outcomes, and one scripted reply per endpoint. */
function environment({
  permission = "granted",
  position = "ok",
  reverse = { body: { city: "Austin", locality: "Austin", principalSubdivision: "Texas" } },
  ip = { body: { city: "Dallas", region: "Texas" } },
  promptOnLoad = false,
  storage = new Map<string, string>(),
}: {
  permission?: PermissionState | "unsupported";
  position?: "ok" | "denied" | "timeout";
  reverse?: Reply;
  ip?: Reply;
  promptOnLoad?: boolean;
  storage?: Map<string, string>;
} = {}) {
  const getCurrentPosition = vi.fn<Geolocation["getCurrentPosition"]>((success, failure) => {
    if (position === "ok") success({ coords: { latitude: 30.27, longitude: -97.74 } } as GeolocationPosition);
    else failure?.({ code: position === "denied" ? 1 : 3, message: position } as GeolocationPositionError);
  });
  const query = vi.fn(async () => {
    if (permission === "unsupported") throw new TypeError("geolocation is not a valid permission name");
    return { state: permission } as PermissionStatus;
  });
  const reply = (scripted: Reply, init?: RequestInit): Promise<Response> => {
    if (scripted === "network-error") return Promise.reject(new TypeError("Failed to fetch"));
    if (scripted === "hang")
      return new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(new Error("aborted"))));
    const body = typeof scripted.body === "string" ? scripted.body : JSON.stringify(scripted.body);
    return Promise.resolve(new Response(body, { status: scripted.status ?? 200 }));
  };
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
    String(input).startsWith(REVERSE_URL) ? reply(reverse, init) : reply(ip, init),
  );
  const env: LocationEnvironment = {
    config: { reverseGeocodeUrl: REVERSE_URL, ipLookupUrl: IP_URL, promptOnLoad },
    fetch: fetch as unknown as typeof globalThis.fetch,
    geolocation: { getCurrentPosition },
    permissions: { query },
    storage: { getItem: (key) => storage.get(key) ?? null, setItem: (key, value) => void storage.set(key, value) },
    lookupTimeoutMs: 50,
  };
  const requested = () => fetch.mock.calls.map(([input]) => String(input));
  return { env, getCurrentPosition, query, fetch, requested, storage };
}

describe("detectLocation", () => {
  it("uses the granted position and the reverse geocoder's city and principal subdivision", async () => {
    const fake = environment();
    expect(await detectLocation(fake.env)).toEqual({ city: "Austin", state: "Texas" });
    expect(fake.query).toHaveBeenCalledWith({ name: "geolocation" });
    expect(fake.getCurrentPosition).toHaveBeenCalledWith(expect.any(Function), expect.any(Function), {
      timeout: 8000,
      enableHighAccuracy: false,
      maximumAge: 300000,
    });
    expect(GEOLOCATION_OPTIONS).toEqual({ timeout: 8000, enableHighAccuracy: false, maximumAge: 300000 });
    expect(fake.requested()).toHaveLength(1);
    const url = new URL(fake.requested()[0]!);
    expect(`${url.origin}${url.pathname}`).toBe(REVERSE_URL);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      latitude: "30.27",
      longitude: "-97.74",
      localityLanguage: "en",
    });
  });

  it("falls back to the locality when the reverse geocoder has no city", async () => {
    const fake = environment({
      reverse: { body: { city: "", locality: "Round Rock", principalSubdivision: "Texas" } },
    });
    expect(await detectLocation(fake.env)).toEqual({ city: "Round Rock", state: "Texas" });
  });

  it.each<[string, Reply]>([
    ["answers with an error status", { status: 503, body: { city: "Austin" } }],
    ["answers with a body that is not JSON", { body: "<html>rate limited</html>" }],
    ["answers with JSON that is not an object", { body: ["Austin", "Texas"] }],
    ["answers without a usable city", { body: { city: "", locality: "", principalSubdivision: "Texas" } }],
    ["cannot be reached", "network-error"],
    ["does not answer in time", "hang"],
  ])("falls back to the IP lookup when the reverse geocoder %s", async (_, reverse) => {
    const fake = environment({ reverse });
    expect(await detectLocation(fake.env)).toEqual({ city: "Dallas", state: "Texas" });
    expect(fake.requested().map((url) => new URL(url).origin)).toEqual(["https://reverse.test", "https://ip.test"]);
  });

  it.each(["denied", "timeout"] as const)("falls back to the IP lookup when geolocation is %s", async (position) => {
    const fake = environment({ position });
    expect(await detectLocation(fake.env)).toEqual({ city: "Dallas", state: "Texas" });
    expect(fake.requested()).toEqual([IP_URL]);
  });

  it.each(["prompt", "denied", "unsupported"] as const)(
    "does not ask for the position when permission is %s, and goes straight to the IP lookup",
    async (permission) => {
      const fake = environment({ permission });
      expect(await detectLocation(fake.env)).toEqual({ city: "Dallas", state: "Texas" });
      expect(fake.getCurrentPosition).not.toHaveBeenCalled();
      expect(fake.requested()).toEqual([IP_URL]);
    },
  );

  it("does not ask for the position in a browser without the Permissions API", async () => {
    const fake = environment();
    expect(await detectLocation({ ...fake.env, permissions: undefined })).toEqual({ city: "Dallas", state: "Texas" });
    expect(fake.getCurrentPosition).not.toHaveBeenCalled();
  });

  it("asks for the position on load when the operator switched prompting on", async () => {
    const fake = environment({ permission: "prompt", promptOnLoad: true });
    expect(await detectLocation(fake.env)).toEqual({ city: "Austin", state: "Texas" });
    expect(fake.query).not.toHaveBeenCalled();
    expect(fake.getCurrentPosition).toHaveBeenCalledOnce();
  });

  it("uses the IP lookup in a browser without geolocation", async () => {
    const fake = environment();
    expect(await detectLocation({ ...fake.env, geolocation: undefined })).toEqual({ city: "Dallas", state: "Texas" });
    expect(fake.requested()).toEqual([IP_URL]);
  });

  it.each<[string, Reply]>([
    ["answers with an error status", { status: 429, body: { error: true } }],
    ["answers with garbage", { body: "not json" }],
    ["has no city", { body: { region: "Texas" } }],
    ["cannot be reached", "network-error"],
    ["does not answer in time", "hang"],
  ])("finds nothing when the device gives nothing and the IP lookup %s", async (_, ip) => {
    const fake = environment({ permission: "prompt", ip });
    expect(await detectLocation(fake.env)).toBeNull();
  });

  it("gives the city alone when the source has no state", async () => {
    expect(await detectLocation(environment({ reverse: { body: { city: "Reno" } } }).env)).toEqual({ city: "Reno" });
    expect(
      await detectLocation(environment({ permission: "denied", ip: { body: { city: "Boise", region: "" } } }).env),
    ).toEqual({ city: "Boise" });
  });

  it("refuses place names that are not short plain text", async () => {
    const tooLong = "A".repeat(61);
    const fake = environment({ reverse: { body: { city: tooLong } }, ip: { body: { city: 42, region: "Texas" } } });
    expect(await detectLocation(fake.env)).toBeNull();
    const controlCharacters = environment({ reverse: { body: { city: "Aus\u0000tin\n", principalSubdivision: 7 } } });
    expect(await detectLocation(controlCharacters.env)).toEqual({ city: "Austin" });
  });

  it("skips a source whose endpoint is not configured", async () => {
    const noReverse = environment();
    noReverse.env.config = { ...noReverse.env.config, reverseGeocodeUrl: undefined };
    expect(await detectLocation(noReverse.env)).toEqual({ city: "Dallas", state: "Texas" });
    expect(noReverse.getCurrentPosition).not.toHaveBeenCalled();

    const nothing = environment();
    nothing.env.config = { reverseGeocodeUrl: undefined, ipLookupUrl: undefined, promptOnLoad: false };
    expect(await detectLocation(nothing.env)).toBeNull();
    expect(nothing.fetch).not.toHaveBeenCalled();
  });

  it("remembers the answer for the session, found or not, and makes no second request", async () => {
    const storage = new Map<string, string>();
    const first = environment({ storage });
    expect(await detectLocation(first.env)).toEqual({ city: "Austin", state: "Texas" });
    const second = environment({ storage, reverse: "network-error", ip: "network-error" });
    expect(await detectLocation(second.env)).toEqual({ city: "Austin", state: "Texas" });
    expect(second.fetch).not.toHaveBeenCalled();
    expect(second.getCurrentPosition).not.toHaveBeenCalled();

    const emptyStorage = new Map<string, string>();
    expect(
      await detectLocation(environment({ storage: emptyStorage, permission: "prompt", ip: "hang" }).env),
    ).toBeNull();
    const afterNothing = environment({ storage: emptyStorage });
    expect(await detectLocation(afterNothing.env)).toBeNull();
    expect(afterNothing.fetch).not.toHaveBeenCalled();
  });

  it("ignores a damaged cache entry and works without storage", async () => {
    const storage = new Map([[LOCATION_CACHE_KEY, "{not json"]]);
    expect(await detectLocation(environment({ storage }).env)).toEqual({ city: "Austin", state: "Texas" });
    expect(JSON.parse(storage.get(LOCATION_CACHE_KEY)!)).toEqual({ city: "Austin", state: "Texas" });

    const fake = environment();
    const throwing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(await detectLocation({ ...fake.env, storage: throwing })).toEqual({ city: "Austin", state: "Texas" });
  });
});

describe("locationLineText", () => {
  it("says what the line shows in each state", () => {
    expect(locationLineText({ status: "loading" })).toBe("Detecting Your Location...");
    expect(locationLineText({ status: "found", location: { city: "Austin", state: "Texas" } })).toBe(
      "Serving Austin, Texas",
    );
    expect(locationLineText({ status: "found", location: { city: "Reno" } })).toBe("Serving Reno");
    expect(locationLineText({ status: "unknown" })).toBe("Serving Your Local Area");
  });
});
