import type { ComponentProps } from "react";
import { siteConfig } from "~/config/site.ts";
import type { PhonePlacement } from "~/lib/phone-placements.ts";
import {
  ATTRIBUTION_TEXT_MAX,
  campaignFields,
  CLICK_ID_MAX,
  clickIdFields,
  COUNTED_FORM_ATTRIBUTE,
  PAGE_VIEW_EVENT,
  SITE_EVENTS_ENDPOINT,
  VISIT_STORAGE_KEY,
} from "~/lib/site-events.ts";

const PLACEMENT_ATTRIBUTE = "data-phone-placement";

type PhoneLinkProps = Omit<ComponentProps<"a">, "href"> & { placement: PhonePlacement };

/** The only place that renders a tel: link. Clicks are tracked by the listener below, not by React. */
export function PhoneLink({ placement, children, ...rest }: PhoneLinkProps) {
  return (
    <a {...rest} href={`tel:${siteConfig.phone.e164}`} {...{ [PLACEMENT_ATTRIBUTE]: placement }}>
      {children ?? siteConfig.phone.display}
    </a>
  );
}

type Gtag = (command: "event", name: string, params: Record<string, unknown>) => void;

/** What the listener needs besides the page: constants of app/lib/site-events.ts, passed in as plain values. */
interface CountingSettings {
  endpoint: string;
  storageKey: string;
  pageViewEvent: string;
  formAttribute: string;
  queryFields: readonly string[];
  textMax: number;
  clickIdMax: number;
}

/**
 * Counts page views, call clicks and form starts (decisions 070 and 121) with the site's own endpoint, and sends
 * phone_click for every click on a PhoneLink when an analytics function exists. It runs as an inline script in the head,
 * so clicks made before the app's scripts load (they start after the load event) are counted too; sendBeacon
 * queues the request and returns at once, so the tel: navigation is never delayed. The first page of a visit
 * keeps the visit's attribution in sessionStorage (gone when the tab closes). It must stay self-contained: it is
 * serialised with Function#toString.
 */
function trackPhoneClicks(
  doc: Document,
  win: Window & { gtag?: Gtag },
  attribute: string,
  settings: CountingSettings,
) {
  let visit: Record<string, string> = {};
  try {
    const stored = win.sessionStorage.getItem(settings.storageKey);
    if (stored) visit = JSON.parse(stored) as Record<string, string>;
    else {
      const query = new URLSearchParams(win.location.search);
      visit.landing_path = win.location.pathname;
      const referrer = doc.referrer ? new URL(doc.referrer) : null;
      if (referrer && referrer.host !== win.location.host) visit.referrer_host = referrer.hostname;
      for (const name of settings.queryFields) {
        const value = query.get(name)?.trim();
        const max = name.startsWith("utm_") ? settings.textMax : settings.clickIdMax;
        if (value && value.length <= max) visit[name] = value;
      }
      win.sessionStorage.setItem(settings.storageKey, JSON.stringify(visit));
    }
  } catch {
    // Storage may be disabled; the counts then carry no source.
  }
  const count = (kind: "view" | "call" | "form", placement?: string | null) => {
    try {
      win.navigator.sendBeacon(
        settings.endpoint,
        JSON.stringify({
          kind,
          path: win.location.pathname.replace(/(.)\/+$/, "$1"),
          placement: placement ?? undefined,
          source: visit.utm_source || visit.referrer_host,
          medium: visit.utm_medium,
          campaign: visit.utm_campaign,
        }),
      );
    } catch {
      // Counting never gets in the visitor's way.
    }
  };
  doc.addEventListener(
    "click",
    (event) => {
      const target = event.target;
      const link = target instanceof Element ? target.closest(`a[${attribute}]`) : null;
      if (!link) return;
      count("call", link.getAttribute(attribute));
      if (typeof win.gtag !== "function") return;
      win.gtag("event", "phone_click", {
        event_category: "engagement",
        event_label: link.getAttribute(attribute),
        value: 1,
      });
    },
    true,
  );
  // A form start: the first input in a counted form on this page view.
  let formStarted = false;
  doc.addEventListener(
    "input",
    (event) => {
      const target = event.target;
      if (formStarted || !(target instanceof Element) || !target.closest(`form[${settings.formAttribute}]`)) return;
      formStarted = true;
      count("form");
    },
    true,
  );
  // This document's view once it has loaded, so the beacon never competes with the page; later views are
  // client-side navigations, announced by the app.
  doc.addEventListener(settings.pageViewEvent, () => {
    formStarted = false;
    count("view");
  });
  if (doc.readyState === "complete") count("view");
  else win.addEventListener("load", () => count("view"), { once: true });
}

/**
 * The listener as an inline script. Only the server renders it (prerendered HTML): the browser never runs this
 * again, so the page's own bundle leaves it out.
 */
export function phoneClickTrackingScript(): string {
  const settings: CountingSettings = {
    endpoint: SITE_EVENTS_ENDPOINT,
    storageKey: VISIT_STORAGE_KEY,
    pageViewEvent: PAGE_VIEW_EVENT,
    formAttribute: COUNTED_FORM_ATTRIBUTE,
    queryFields: [...campaignFields, ...clickIdFields],
    textMax: ATTRIBUTION_TEXT_MAX,
    clickIdMax: CLICK_ID_MAX,
  };
  return `(${trackPhoneClicks.toString()})(document, window, ${JSON.stringify(PLACEMENT_ATTRIBUTE)}, ${JSON.stringify(settings)});`;
}
