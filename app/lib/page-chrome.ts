import { useMatches } from "react-router";
import { siteConfig } from "~/config/site.ts";

/** What a route may change in the shared chrome, through its `handle` export. */
export interface PageChromeHandle {
  chrome?: { bannerText?: string; companyName?: string };
}

export interface PageChrome {
  bannerText: string;
  companyName: string;
}

/** The chrome for the current page: the operator's settings, overridden by the deepest route that says otherwise. */
export function usePageChrome(): PageChrome {
  const matches = useMatches();
  const chrome: PageChrome = { bannerText: siteConfig.bannerText, companyName: siteConfig.companyName };
  for (const match of matches) {
    const overrides = (match.handle as PageChromeHandle | undefined)?.chrome;
    if (overrides) Object.assign(chrome, overrides);
  }
  return chrome;
}
