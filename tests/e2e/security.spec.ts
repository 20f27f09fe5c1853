import { createHash } from "node:crypto";
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
  test.setTimeout(60_000);
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

test("each page's inline style is allowed by its CSP's hash or nonce, and nothing else inline is", async ({
  request,
}) => {
  for (const path of [...prerenderedRoutes(), "/missing"]) {
    const response = await request.get(path);
    const html = await response.text();
    const styleSources = /(?:^|; )style-src ([^;]*)/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
    const styles = Array.from(html.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g));
    expect(styles, path).toHaveLength(1);
    const [, attributes = "", body = ""] = styles[0]!;
    const nonce = /\snonce="([^"]+)"/.exec(attributes)?.[1];
    const hash = `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`;
    expect(styleSources, path).toBe(nonce ? `'self' 'nonce-${nonce}'` : `'self' ${hash}`);
  }
});
