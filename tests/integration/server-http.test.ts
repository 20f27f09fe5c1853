import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "../../server.ts";
import { siteConfig } from "~/config/site.ts";
import { testEnv, validContact } from "./support.ts";

/** The Node server's own rules, in front of React Router: origins, proxies, POST limits, static files. */
describe("server", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(testEnv({ TRUST_PROXY: "1", POST_RATE_LIMIT_PER_MINUTE: "2" }));
  });
  afterAll(() => running.close());

  const postContactForm = (headers: Record<string, string>) =>
    fetch(`${running.url}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...headers },
      body: new URLSearchParams(validContact).toString(),
      redirect: "manual",
    });

  test("refuses a form posted from another site with 403, before storing anything", async () => {
    const response = await postContactForm({ Origin: "https://evil.example", "X-Forwarded-For": "203.0.113.1" });
    expect(response.status).toBe(403);
    expect(await running.services.db.$count((await import("~/server/db-schema.server.ts")).contactRequests)).toBe(0);
  });

  test("accepts the site's public origin even when a proxy rewrote Host", async () => {
    const response = await postContactForm({
      Origin: new URL(siteConfig.siteUrl).origin,
      "X-Forwarded-For": "203.0.113.2",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Message sent successfully!");
  });

  test("limits POSTs per client address behind one trusted proxy, answering browsers with a page", async () => {
    const from = (address: string) => postContactForm({ "X-Forwarded-For": address, Origin: "https://evil.example" });
    expect((await from("198.51.100.7")).status).toBe(403);
    expect((await from("198.51.100.7")).status).toBe(403);
    const limited = await from("198.51.100.7");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("content-type")).toContain("text/html");
    const page = await limited.text();
    expect(page).toContain("Too many requests");
    expect(page).toContain(siteConfig.phone.display);
    // Another visitor behind the same proxy is not affected.
    expect((await from("198.51.100.8")).status).toBe(403);
  });

  test("serves pages only by their paths, with their CSP, never as raw .html files", async () => {
    const page = await fetch(`${running.url}/about`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self' 'sha256-");
    for (const raw of ["/index.html", "/about/index.html"]) {
      const response = await fetch(`${running.url}${raw}`);
      expect(response.status, raw).toBe(404);
      expect(response.headers.get("content-security-policy"), raw).toContain("'nonce-");
    }
  });
});
