import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { signedLinkRoute } from "~/content/site-pages.ts";
import { PAGE_VIEW_EVENT } from "~/lib/site-events.ts";

/**
 * Announces each client-side navigation to the inline listener, which counts it as a page view. The document's
 * first page is counted by the listener itself, so the first render announces nothing.
 */
export function useClientPageViews() {
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (firstPath.current === pathname) return;
    firstPath.current = "";
    // A page opened by a signed link is never counted, however it was reached.
    if (signedLinkRoute(pathname) !== undefined) return;
    document.dispatchEvent(new Event(PAGE_VIEW_EVENT));
  }, [pathname]);
}
