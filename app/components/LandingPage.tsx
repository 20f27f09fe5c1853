import type { MetaFunction } from "react-router";
import { LandingSections } from "~/components/LandingSections.tsx";
import type { LandingPage } from "~/content/types.ts";
import { landingPageMeta } from "~/content/landing-page-meta.ts";
import { usePageChrome, type PageChromeHandle } from "~/lib/page-chrome.ts";
import { fillCompanyDeep } from "~/lib/text.ts";

/**
 * What a landing page's route module exports: its meta, its chrome and its component, from its content. Each
 * page has its own module, which imports only its own content: the copy reaches the browser once, as HTML and
 * in that page's script, and no page's script carries the other pages' copy.
 */
export function landingPageRoute(page: LandingPage) {
  const meta: MetaFunction = () => landingPageMeta(page);
  const handle: PageChromeHandle = { chrome: page.chrome };
  function LandingPageView() {
    const { companyName } = usePageChrome();
    return <LandingSections sections={fillCompanyDeep(page.sections, companyName)} />;
  }
  return { meta, handle, Component: LandingPageView };
}
