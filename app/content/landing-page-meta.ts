import type { MetaDescriptor } from "react-router";
import { siteConfig } from "~/config/site.ts";
import type { LandingPage } from "./types.ts";
import { breadcrumbJsonLd, faqPageJsonLd, pageMeta } from "~/lib/seo.ts";
import { fillCompanyDeep } from "~/lib/text.ts";

/** The company a landing page names: its own override (the HVAC page's) or the operator's. */
function landingPageCompany(page: LandingPage): string {
  return page.chrome?.companyName ?? siteConfig.companyName;
}

/** Title, description and tags, the breadcrumb, and FAQPage data when the page has questions. */
export function landingPageMeta(page: LandingPage): MetaDescriptor[] {
  const companyName = landingPageCompany(page);
  const faqs = page.sections.flatMap((section) => (section.kind === "faq" ? section.faqs : []));
  return [
    ...pageMeta(fillCompanyDeep(page.seo, companyName), companyName),
    breadcrumbJsonLd(page.breadcrumb, page.seo.path),
    ...(faqs.length > 0 ? [faqPageJsonLd(fillCompanyDeep(faqs, companyName))] : []),
  ];
}
