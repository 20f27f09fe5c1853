import { describe, expect, it } from "vitest";
import { landingPageMeta } from "~/content/landing-page-meta.ts";
import { landingPages } from "./landing-pages.ts";
import { sitePages } from "./site-pages.ts";

describe("landing pages", () => {
  it("are each served at their own path by a route module that renders them", async () => {
    for (const page of landingPages) {
      const sitePage = sitePages.find(({ path }) => path === page.seo.path);
      expect(sitePage, page.seo.path).toBeDefined();
      const routeModule = (await import(`../${sitePage!.route}`)) as { meta: () => unknown };
      expect(routeModule.meta(), page.seo.path).toEqual(landingPageMeta(page));
    }
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
});
