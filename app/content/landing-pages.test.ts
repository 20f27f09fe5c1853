import { describe, expect, it } from "vitest";
import routes from "~/routes.ts";
import { landingPageAt, landingPages } from "./landing-pages.ts";

describe("landing page registry", () => {
  it("has content for every landing route and a route for every page", () => {
    const landingRoutePaths = routes
      .filter((route) => route.file === "routes/landing-page.tsx")
      .map((route) => route.path);
    expect(landingRoutePaths.sort()).toEqual(landingPages.map((page) => page.seo.path).sort());
  });

  it("gives every page its own path, title and breadcrumb", () => {
    for (const key of ["path", "title"] as const) {
      expect(new Set(landingPages.map((page) => page.seo[key])).size).toBe(landingPages.length);
    }
    expect(new Set(landingPages.map((page) => page.breadcrumb)).size).toBe(landingPages.length);
  });

  it("starts every page with exactly one hero, so it has one h1", () => {
    for (const page of landingPages) {
      expect(page.sections[0]?.kind, page.seo.path).toBe("hero");
      expect(
        page.sections.filter((section) => section.kind === "hero"),
        page.seo.path,
      ).toHaveLength(1);
    }
  });

  it("finds a page by path, with or without a trailing slash", () => {
    expect(landingPageAt("/sewer-services")?.seo.path).toBe("/sewer-services");
    expect(landingPageAt("/sewer-services/")?.seo.path).toBe("/sewer-services");
    expect(landingPageAt("/sewer")).toBeUndefined();
    expect(landingPageAt("/")).toBeUndefined();
  });
});
