import type { MetaDescriptor } from "react-router";
import { describe, expect, it } from "vitest";
import { siteConfig } from "~/config/site.ts";
import { landingPages } from "~/content/landing-pages.ts";
import type { LandingPage } from "~/content/types.ts";
import { landingPageMeta } from "./landing-page-meta.ts";

function page(path: string): LandingPage {
  const found = landingPages.find((landingPage) => landingPage.seo.path === path);
  if (!found) throw new Error(`no page at ${path}`);
  return found;
}

function structuredData(meta: MetaDescriptor[]): Record<string, unknown>[] {
  return meta.flatMap((descriptor) =>
    "script:ld+json" in descriptor ? [descriptor["script:ld+json"] as Record<string, unknown>] : [],
  );
}

describe("landingPageMeta", () => {
  it("builds FAQPage data from the page's own questions and answers", () => {
    const sewer = page("/sewer-services");
    const faqSection = sewer.sections.find((section) => section.kind === "faq");
    const faqPage = structuredData(landingPageMeta(sewer)).find((data) => data["@type"] === "FAQPage");
    expect(faqPage?.mainEntity).toEqual(
      faqSection?.faqs.map((faq) => ({
        "@type": "Question",
        name: faq.question,
        acceptedAnswer: { "@type": "Answer", text: faq.answer },
      })),
    );
  });

  it("gives every page a breadcrumb from home to itself and FAQPage data only where there are questions", () => {
    for (const landingPage of landingPages) {
      const data = structuredData(landingPageMeta(landingPage));
      const breadcrumb = data.find((item) => item["@type"] === "BreadcrumbList");
      expect(breadcrumb?.itemListElement).toEqual([
        { "@type": "ListItem", position: 1, name: "Home", item: `${siteConfig.siteUrl}/` },
        {
          "@type": "ListItem",
          position: 2,
          name: landingPage.breadcrumb,
          item: `${siteConfig.siteUrl}${landingPage.seo.path}`,
        },
      ]);
      const hasFaq = landingPage.sections.some((section) => section.kind === "faq");
      expect(data.some((item) => item["@type"] === "FAQPage")).toBe(hasFaq);
      expect(JSON.stringify(data)).not.toMatch(/"Review"|"AggregateRating"/);
    }
  });

  it("names the page's own company, the HVAC page's override or the operator's", () => {
    const hvacMeta = landingPageMeta(page("/hvac-services"));
    expect(hvacMeta).toContainEqual({ title: "Expert HVAC Services & Repair | HVACFix pros" });
    expect(hvacMeta).toContainEqual({ property: "og:site_name", content: "HVACFix pros" });
    const aboutMeta = landingPageMeta(page("/about"));
    expect(aboutMeta).toContainEqual({ property: "og:site_name", content: siteConfig.companyName });
    expect(JSON.stringify(aboutMeta)).toContain(`About ${siteConfig.companyName}`);
    expect(JSON.stringify(aboutMeta)).not.toContain("{company}");
  });
});
