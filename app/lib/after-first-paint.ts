/**
 * Calls `then` once the page has loaded and painted its first content, so that what it starts (the app's
 * scripts, the view's beacon) never competes with the first view for the network or the processor. A hidden
 * page, or a browser without paint timing, has nothing to wait for; a page hidden before its first paint
 * reports none, so `then` runs 2 s after load at the latest.
 *
 * Self-contained: the inline scripts pass it to each other serialised with Function#toString.
 */
export function afterLoadAndFirstPaint(doc: Document, win: Window, then: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    win.setTimeout(then, 0);
  };
  const afterLoad = () => {
    if (doc.visibilityState === "hidden" || !PerformanceObserver.supportedEntryTypes?.includes("paint")) {
      once();
      return;
    }
    const fallback = win.setTimeout(once, 2000);
    const painted = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName("first-contentful-paint").length === 0) return;
      painted.disconnect();
      win.clearTimeout(fallback);
      once();
    });
    painted.observe({ type: "paint", buffered: true });
  };
  if (doc.readyState === "complete") afterLoad();
  else win.addEventListener("load", afterLoad, { once: true });
}
