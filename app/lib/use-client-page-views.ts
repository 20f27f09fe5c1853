import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { PAGE_VIEW_EVENT } from "./site-events.ts";

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
    document.dispatchEvent(new Event(PAGE_VIEW_EVENT));
  }, [pathname]);
}
