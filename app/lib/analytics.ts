type AnalyticsWindow = Window & {
  dataLayer?: unknown[];
  gtag?: (...args: unknown[]) => void;
  navigator: Navigator & { globalPrivacyControl?: boolean };
};

/**
 * Sets up GA4 the way Google's snippet does, with two differences: nothing happens when the
 * visitor sends Global Privacy Control, and gtag.js is fetched only after the load event so it
 * never competes with the page. Events queued in dataLayer before then are sent once it loads.
 * Serialised with Function#toString into an inline head script, so it must stay self-contained.
 */
export function installGoogleAnalytics(win: AnalyticsWindow, doc: Document, measurementId: string) {
  if (win.navigator.globalPrivacyControl === true) return;
  const dataLayer = (win.dataLayer = win.dataLayer || []);
  win.gtag = function gtag() {
    // gtag.js reads the arguments object itself, not an array copy.
    // eslint-disable-next-line prefer-rest-params
    dataLayer.push(arguments);
  };
  win.gtag("js", new Date());
  win.gtag("config", measurementId);
  const inject = () => {
    const script = doc.createElement("script");
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
    doc.head.appendChild(script);
  };
  if (doc.readyState === "complete") inject();
  else win.addEventListener("load", () => setTimeout(inject, 0), { once: true });
}

export function googleAnalyticsScript(measurementId: string): string {
  return `(${installGoogleAnalytics.toString()})(window, document, ${JSON.stringify(measurementId)});`;
}
