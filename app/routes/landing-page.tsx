import { data } from "react-router";
import type { Route } from "./+types/landing-page";
import { LandingSections } from "~/components/LandingSections.tsx";
import { landingPageAt } from "~/content/landing-pages.ts";
import type { LandingPage } from "~/content/types.ts";
import { landingPageMeta } from "~/lib/landing-page.ts";
import { usePageChrome, type PageChromeHandle } from "~/lib/page-chrome.ts";
import { fillCompanyDeep } from "~/lib/text.ts";

/**
 * Every landing page, and /about: routes.ts points each path here and the loader picks the content
 * by path. The loader runs only at build time (prerendering), so the copy reaches the browser as HTML
 * and route data, and no page's script carries the other pages' copy.
 */
export function loader({ request }: Route.LoaderArgs): LandingPage {
  const page = landingPageAt(new URL(request.url).pathname);
  if (!page) throw data(null, { status: 404 });
  return page;
}

export const handle: PageChromeHandle = { chrome: (loaderData) => (loaderData as LandingPage | undefined)?.chrome };

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? landingPageMeta(loaderData) : []);

export default function LandingPageRoute({ loaderData }: Route.ComponentProps) {
  const { companyName } = usePageChrome();
  return <LandingSections sections={fillCompanyDeep(loaderData.sections, companyName)} />;
}
