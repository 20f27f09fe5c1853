import { expect, test } from "@playwright/test";
import { env, toPublicSiteConfig } from "../../app/config/env.server.ts";
import { sitePaths } from "../../app/content/site-pages.ts";
import { prerenderedRoutes } from "./helpers.ts";

const { siteUrl } = toPublicSiteConfig(env);

test("sitemap.xml lists every route of the spec, and every prerendered page, as absolute URLs", async ({ request }) => {
  const response = await request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^application\/xml/);
  const body = await response.text();
  expect(body).toMatch(
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
  );
  const locations = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
  expect(locations).toHaveLength(sitePaths.length);
  for (const location of locations) expect(new URL(location).origin).toBe(new URL(siteUrl).origin);
  const paths = locations.map((location) => new URL(location).pathname);
  expect([...paths].sort()).toEqual([...sitePaths].sort());
  for (const route of prerenderedRoutes()) expect(paths, `${route} is missing from the sitemap`).toContain(route);
});

test("robots.txt lets crawlers in and points to the sitemap", async ({ request }) => {
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
  const body = await response.text();
  expect(body).toContain("User-agent: *");
  expect(body).not.toMatch(/^Disallow: \/$/m);
  expect(body).toContain(`Sitemap: ${siteUrl}/sitemap.xml`);
});
