import type { MetaDescriptor } from "react-router";
import { siteConfig } from "~/config/site.ts";

export interface PageSeo {
  title: string;
  description: string;
  /** The route's own path, used for the canonical link and og:url. */
  path: string;
  keywords?: string;
}

export interface FaqItem {
  question: string;
  answer: string;
}

export function canonicalUrl(path: string): string {
  return `${siteConfig.siteUrl}${path === "/" ? "/" : path}`;
}

/** Title, description, canonical link and Open Graph tags for one page; `siteName` differs where a page renames the company. */
export function pageMeta(
  { title, description, path, keywords }: PageSeo,
  siteName: string = siteConfig.companyName,
): MetaDescriptor[] {
  const url = canonicalUrl(path);
  return [
    { title },
    { name: "description", content: description },
    ...(keywords ? [{ name: "keywords", content: keywords }] : []),
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: siteName },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
  ];
}

/** A JSON-LD block as a meta descriptor; React Router renders it as an application/ld+json script. */
function jsonLd(data: Record<string, unknown>): MetaDescriptor {
  return { "script:ld+json": { "@context": "https://schema.org", ...data } };
}

/** BreadcrumbList JSON-LD for a page one level below home. */
export function breadcrumbJsonLd(name: string, path: string): MetaDescriptor {
  return jsonLd({
    "@type": "BreadcrumbList",
    itemListElement: [
      { "@type": "ListItem", position: 1, name: "Home", item: canonicalUrl("/") },
      { "@type": "ListItem", position: 2, name, item: canonicalUrl(path) },
    ],
  });
}

/** FAQPage JSON-LD from the same questions and answers the page shows. */
export function faqPageJsonLd(faqs: FaqItem[]): MetaDescriptor {
  return jsonLd({
    "@type": "FAQPage",
    mainEntity: faqs.map((faq) => ({
      "@type": "Question",
      name: faq.question,
      acceptedAnswer: { "@type": "Answer", text: faq.answer },
    })),
  });
}

/** The business as a Plumber (a LocalBusiness): name, number, hours and area served. No review markup. */
export function plumberJsonLd(): MetaDescriptor {
  return jsonLd({
    "@type": "Plumber",
    name: siteConfig.companyName,
    telephone: siteConfig.phone.e164,
    url: siteConfig.siteUrl,
    areaServed: { "@type": "Country", name: "United States" },
    openingHours: "Mo-Su 00:00-23:59",
  });
}
