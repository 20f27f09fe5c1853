import { useMatches } from "react-router";
import { siteConfig } from "~/config/site.ts";

export interface PageChrome {
  bannerText: string;
  companyName: string;
}

/** What a route may change in the shared chrome, through its `handle` export. */
export interface PageChromeHandle {
  /**
   * Fixed overrides, or overrides read from the route's loader data: a route module that
   * serves several pages (routes/landing-page.tsx) only knows its page from that data.
   */
  chrome?: Partial<PageChrome> | ((loaderData: unknown) => Partial<PageChrome> | undefined);
}

/** The chrome for the current page: the operator's settings, overridden by the deepest route that says otherwise. */
export function usePageChrome(): PageChrome {
  const matches = useMatches();
  const chrome: PageChrome = { bannerText: siteConfig.bannerText, companyName: siteConfig.companyName };
  for (const match of matches) {
    const overrides = (match.handle as PageChromeHandle | undefined)?.chrome;
    Object.assign(chrome, typeof overrides === "function" ? overrides(match.loaderData) : overrides);
  }
  return chrome;
}
