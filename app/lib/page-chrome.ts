import { useMatches } from "react-router";
import { siteConfig } from "~/config/site.ts";

export interface PageChrome {
  bannerText: string;
  companyName: string;
}

/** What a route may change in the shared chrome, through its `handle` export. */
export interface PageChromeHandle {
  chrome?: Partial<PageChrome>;
}

/** The chrome for the current page: the operator's settings, overridden by the deepest route that says otherwise. */
export function usePageChrome(): PageChrome {
  const matches = useMatches();
  const chrome: PageChrome = { bannerText: siteConfig.bannerText, companyName: siteConfig.companyName };
  for (const match of matches) {
    Object.assign(chrome, (match.handle as PageChromeHandle | undefined)?.chrome);
  }
  return chrome;
}
