import { describe, expect, it } from "vitest";
import { listeningOn, parseEnv, toPublicSiteConfig } from "./env.server.ts";

describe("operator configuration", () => {
  it("runs with no settings at all, on a fictional 555-01xx number", () => {
    const env = parseEnv({});
    expect(env.PHONE_E164).toMatch(/^\+1\d{3}55501\d\d$/);
    expect(env.BANNER_TEXT).toBe("We Are Available Now");
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("without SITE_URL, links use the address the server listens on; in production a loopback one is a warning", () => {
    expect(parseEnv({ PORT: "4999" }).SITE_URL).toBe("http://localhost:4999");
    expect(parseEnv({ PORT: "4999", HOST: "::" }).SITE_URL).toBe("http://localhost:4999");
    expect(parseEnv({ PORT: "8080", HOST: "192.0.2.7" }).SITE_URL).toBe("http://192.0.2.7:8080");
    expect(parseEnv({ PORT: "8080", HOST: "::1" }).SITE_URL).toBe("http://[::1]:8080");
    expect(parseEnv({ PORT: "4999" }).siteUrlNotice).toEqual({
      level: "info",
      message: "SITE_URL is not set: links and callbacks use http://localhost:4999, where this server listens.",
    });
    expect(parseEnv({ SITE_URL: "https://www.example.com/" }).siteUrlNotice).toBeUndefined();

    const production = { NODE_ENV: "production" };
    for (const settings of [{}, { SITE_URL: "http://127.0.0.1:3000" }]) {
      const notice = parseEnv({ ...production, ...settings }).siteUrlNotice;
      expect(notice?.level).toBe("warn");
      expect(notice?.message).toMatch(/listens on 0\.0\.0\.0[\s\S]*offer and statement links[\s\S]*Twilio's callbacks/);
    }
    expect(parseEnv({ ...production, SITE_URL: "https://www.example.com" }).siteUrlNotice).toBeUndefined();
    // Listening on loopback only (behind a proxy on the same machine, or trying it out) is no warning.
    expect(parseEnv({ ...production, HOST: "127.0.0.1" }).siteUrlNotice?.level).toBe("info");
  });

  it("with PORT 0, an unset SITE_URL is the port the system chose; a set one stays", () => {
    const chosen = listeningOn(parseEnv({ PORT: "0" }), 41234);
    expect(chosen.PORT).toBe(41234);
    expect(chosen.SITE_URL).toBe("http://localhost:41234");
    expect(chosen.siteUrlNotice?.message).toContain("use http://localhost:41234,");
    const production = listeningOn(parseEnv({ PORT: "0", NODE_ENV: "production" }), 41234);
    expect(production.siteUrlNotice?.message).toMatch(/^SITE_URL is not set \(so http:\/\/localhost:41234\)/);
    const set = listeningOn(parseEnv({ PORT: "0", SITE_URL: "https://www.example.com" }), 41234);
    expect(set.SITE_URL).toBe("https://www.example.com");
    expect(set.siteUrlNotice).toBeUndefined();
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ COMPANY_NAME: "", GA4_MEASUREMENT_ID: "" }).COMPANY_NAME).toBe("Plumbline");
  });

  it("fails with a message naming each bad setting", () => {
    expect(() => parseEnv({ PHONE_E164: "800-555-0199", SITE_URL: "not a url", PORT: "99999" })).toThrow(
      /PHONE_E164: must be E\.164[\s\S]*SITE_URL[\s\S]*PORT/,
    );
    expect(() => parseEnv({ COMPANY_NAME: "Evil\r\nBcc: x@y.z" })).toThrow(/COMPANY_NAME: must be a single line/);
    expect(() => parseEnv({ GA4_MEASUREMENT_ID: "UA-1234" })).toThrow(/GA4_MEASUREMENT_ID/);
  });

  it("keeps secrets out of the public settings", () => {
    const env = parseEnv({ DATABASE_URL: "postgres://user:secret@db/plumbline", SMTP_URL: "smtp://u:secret@mail" });
    expect(JSON.stringify(toPublicSiteConfig(env))).not.toContain("secret");
  });

  it("reads TRUST_PROXY as a hop count, a flag or a list of addresses", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(parseEnv({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY).toBe("loopback, 10.0.0.0/8");
  });

  it("turns a location source off with 'off'", () => {
    const config = toPublicSiteConfig(parseEnv({ GEO_IP_URL: "off" }));
    expect(config.geolocation.ipLookupUrl).toBeUndefined();
    expect(config.geolocation.reverseGeocodeUrl).toMatch(/^https:/);
  });

  it("takes the operator's time zone as an IANA name, New York by default", () => {
    expect(parseEnv({}).OPERATOR_TIME_ZONE).toBe("America/New_York");
    expect(parseEnv({ OPERATOR_TIME_ZONE: "Europe/Amsterdam" }).OPERATOR_TIME_ZONE).toBe("Europe/Amsterdam");
    expect(() => parseEnv({ OPERATOR_TIME_ZONE: "Mars/Olympus_Mons" })).toThrow(/OPERATOR_TIME_ZONE: must be an IANA/);
  });

  it("alerts on an unanswered referral only while its partners' links still work", () => {
    expect(parseEnv({ REFERRAL_TOKEN_HOURS: "2", REFERRAL_TIMEOUT_MINUTES: "119" }).REFERRAL_TIMEOUT_MINUTES).toBe(119);
    expect(() => parseEnv({ REFERRAL_TOKEN_HOURS: "2", REFERRAL_TIMEOUT_MINUTES: "120" })).toThrow(
      /REFERRAL_TIMEOUT_MINUTES: must be shorter than REFERRAL_TOKEN_HOURS/,
    );
  });

  it("drops a trailing slash from the site URL", () => {
    expect(parseEnv({ SITE_URL: "https://plumb.example/" }).SITE_URL).toBe("https://plumb.example");
  });
});

describe("call tracking settings", () => {
  const twilio = { TWILIO_ACCOUNT_SID: `AC${"0".repeat(32)}`, TWILIO_AUTH_TOKEN: "a-secret-auth-token-value" };

  it("are off by default, and then the public pages carry nothing of them", () => {
    expect(toPublicSiteConfig(parseEnv({}))).not.toHaveProperty("callTracking");
    expect(toPublicSiteConfig(parseEnv({ CALL_TRACKING_POOL: "+18005550101" }))).not.toHaveProperty("callTracking");
  });

  it("need the number calls ring, and E.164 pool numbers; the auth token never reaches the pages", () => {
    expect(() => parseEnv(twilio)).toThrow(/CALL_FORWARD_TO: must be set/);
    expect(() =>
      parseEnv({ ...twilio, CALL_FORWARD_TO: "+15550100", CALL_TRACKING_POOL: "+18005550101, 555-0102" }),
    ).toThrow(/CALL_TRACKING_POOL/);
    const env = parseEnv({
      ...twilio,
      CALL_FORWARD_TO: "+15550100",
      CALL_TRACKING_POOL: " +18005550101 ,+18005550102",
    });
    expect(env.CALL_TRACKING_POOL).toEqual(["+18005550101", "+18005550102"]);
    expect(env.CALL_RECORDING).toBe("off");
    expect(toPublicSiteConfig(env).callTracking).toBe(true);
    expect(JSON.stringify(toPublicSiteConfig(env))).not.toContain(twilio.TWILIO_AUTH_TOKEN);
  });
});

describe(".env.example", () => {
  it("documents every setting the server reads, and nothing else", async () => {
    const { readFile } = await import("node:fs/promises");
    const example = await readFile(new URL("../../.env.example", import.meta.url), "utf8");
    const documented = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]).sort();
    const { envSchema } = await import("./env.server.ts");
    expect(documented).toEqual(Object.keys(envSchema.shape).sort());
  });
});
