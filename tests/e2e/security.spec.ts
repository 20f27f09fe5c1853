import { expect, test } from "@playwright/test";
import { prerenderedRoutes } from "./helpers.ts";

function expectSecurityHeaders(headers: Record<string, string>) {
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toMatch(/script-src 'self' ('sha256-[A-Za-z0-9+/=]+'|'nonce-[A-Za-z0-9+/=]+')/);
  expect(csp).not.toContain("unsafe-inline");
  expect(csp).not.toContain("unsafe-eval");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("geolocation=(self)");
  expect(headers["x-powered-by"]).toBeUndefined();
}

test("prerendered pages and server-rendered responses carry strict security headers", async ({ request }) => {
  expectSecurityHeaders((await request.get("/")).headers());
  const notFound = await request.get("/missing");
  expectSecurityHeaders(notFound.headers());
  expect(notFound.headers()["content-security-policy"]).toContain("'nonce-");
  const first = (await request.get("/missing")).headers()["content-security-policy"];
  expect(first).not.toBe(notFound.headers()["content-security-policy"]);
});

test("no page breaks its own CSP or uses inline event handlers", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/.test(message.text()))
      violations.push(message.text());
  });
  for (const path of [...prerenderedRoutes(), "/missing"]) {
    await page.goto(path, { waitUntil: "load" });
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const inlineHandlers = await page.evaluate(() =>
      Array.from(document.querySelectorAll("*")).flatMap((element) =>
        Array.from(element.attributes)
          .filter((attribute) => attribute.name.startsWith("on"))
          .map((attribute) => attribute.name),
      ),
    );
    expect(inlineHandlers, path).toEqual([]);
  }
  expect(violations).toEqual([]);
});
