import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, inlineScriptHashes, inlineStyleHashes } from "./csp.server.ts";
import { parseEnv, toPublicSiteConfig } from "~/config/env.server.ts";

const sha = (body: string) => `'sha256-${createHash("sha256").update(body).digest("base64")}'`;

describe("inline script hashes", () => {
  it("hashes executable inline scripts only", () => {
    const html = `<script>a()</script><script type="application/ld+json">{"x":1}</script><script src="/x.js"></script><script type="module">b()</script>`;
    expect(inlineScriptHashes(html)).toEqual([sha("a()"), sha("b()")]);
  });
});

describe("inline style hashes", () => {
  it("hashes each <style> element's text", () => {
    expect(
      inlineStyleHashes(`<head><style>a{color:red}</style></head><body><style nonce="n">b{}</style></body>`),
    ).toEqual([sha("a{color:red}"), sha("b{}")]);
  });
});

describe("content security policy", () => {
  it("allows only the site itself and the given script sources", () => {
    const csp = contentSecurityPolicy(toPublicSiteConfig(parseEnv({ GEO_IP_URL: "https://ip.example/json" })), [
      "'nonce-x'",
    ]);
    expect(csp).toContain("script-src 'self' 'nonce-x'");
    // The nonce also covers the response's inline style.
    expect(csp).toContain("style-src 'self' 'nonce-x';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self' https://api.bigdatacloud.net https://ip.example");
    expect(csp).not.toContain("googletagmanager");
  });

  it("allows the given style hashes and no other inline style", () => {
    const csp = contentSecurityPolicy(toPublicSiteConfig(parseEnv({})), [sha("a()")], [sha("b{}")]);
    expect(csp).toContain(`style-src 'self' ${sha("b{}")};`);
    expect(csp).not.toContain("unsafe-inline");
  });

  it("adds Google's origins only when analytics is configured", () => {
    const csp = contentSecurityPolicy(toPublicSiteConfig(parseEnv({ GA4_MEASUREMENT_ID: "G-ABC123" })), []);
    expect(csp).toMatch(/script-src 'self' https:\/\/www\.googletagmanager\.com/);
    expect(csp).toContain("https://*.google-analytics.com");
  });
});
