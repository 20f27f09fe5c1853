import { describe, expect, it } from "vitest";
import { isAllowedOrigin, provesSameOrigin } from "./origin.server.ts";

describe("isAllowedOrigin", () => {
  const allowed = ["https://plumbline.example", "https://partner.example"];
  it("accepts this host, allowed origins and requests without Origin", () => {
    expect(isAllowedOrigin("http://localhost:3000", "localhost:3000", allowed)).toBe(true);
    expect(isAllowedOrigin("https://plumbline.example", "10.0.0.5:3000", allowed)).toBe(true);
    expect(isAllowedOrigin(null, "localhost:3000", allowed)).toBe(true);
  });
  it("refuses other sites, look-alikes and garbage", () => {
    expect(isAllowedOrigin("https://evil.example", "localhost:3000", allowed)).toBe(false);
    expect(isAllowedOrigin("http://plumbline.example", "localhost:3000", allowed)).toBe(false);
    expect(isAllowedOrigin("https://plumbline.example.evil.example", "localhost:3000", allowed)).toBe(false);
    expect(isAllowedOrigin("null", "localhost:3000", allowed)).toBe(false);
  });
});

describe("provesSameOrigin", () => {
  const site = "https://plumbline.example";
  const host = "localhost:3000";
  it("accepts a matching Origin, else a matching Referer, else Sec-Fetch-Site: same-origin", () => {
    expect(provesSameOrigin({ origin: "http://localhost:3000" }, host, site)).toBe(true);
    expect(provesSameOrigin({ origin: site }, "10.0.0.5:3000", site)).toBe(true);
    expect(provesSameOrigin({ referer: "http://localhost:3000/admin/leads/1?x=1" }, host, site)).toBe(true);
    expect(provesSameOrigin({ referer: `${site}/admin` }, "10.0.0.5:3000", site)).toBe(true);
    expect(provesSameOrigin({ "sec-fetch-site": "same-origin" }, host, site)).toBe(true);
  });
  it("refuses a foreign Origin even with a matching Referer, a foreign Referer, and a request that proves nothing", () => {
    expect(provesSameOrigin({ origin: "https://evil.example", referer: `${site}/admin` }, host, site)).toBe(false);
    expect(provesSameOrigin({ origin: "null", "sec-fetch-site": "same-origin" }, host, site)).toBe(false);
    expect(provesSameOrigin({ referer: "https://evil.example/admin" }, host, site)).toBe(false);
    expect(provesSameOrigin({ referer: "https://plumbline.example.evil.example/" }, host, site)).toBe(false);
    expect(provesSameOrigin({ "sec-fetch-site": "same-site" }, host, site)).toBe(false);
    expect(provesSameOrigin({ "sec-fetch-site": "cross-site" }, host, site)).toBe(false);
    expect(provesSameOrigin({}, host, site)).toBe(false);
  });
  it("does not let an origin allowed for the lead endpoint post to the console", () => {
    expect(provesSameOrigin({ origin: "https://partner.example" }, host, site)).toBe(false);
  });
});
