import type { ComponentProps } from "react";
import { siteConfig } from "~/config/site.ts";
import { afterLoadAndFirstPaint } from "~/lib/after-first-paint.ts";
import type { PhonePlacement } from "~/lib/phone-placements.ts";
import { COUNTED_FORM_ATTRIBUTE, PAGE_VIEW_EVENT, SITE_EVENTS_ENDPOINT } from "~/lib/site-events.ts";
import { TRACKING_NUMBER_ENDPOINT, TRACKING_NUMBER_STORAGE_KEY, type TrackingNumber } from "~/lib/tracking-number.ts";
import { keepVisitAttribution, visitSettings, type VisitSettings } from "~/lib/visit-attribution.ts";

const PLACEMENT_ATTRIBUTE = "data-phone-placement";

type PhoneLinkProps = Omit<ComponentProps<"a">, "href"> & { placement: PhonePlacement };

/**
 * The number call links show: the visit's tracking number once the inline script below holds one (it has
 * already written it into the page before the app hydrates, so the app renders what the page shows), otherwise
 * the site's own. The server always renders the site's.
 */
export function shownPhone(): { e164: string; display: string } {
  if (!siteConfig.callTracking || import.meta.env.SSR) return siteConfig.phone;
  try {
    const held = JSON.parse(sessionStorage.getItem(TRACKING_NUMBER_STORAGE_KEY) ?? "null") as TrackingNumber | null;
    return held ? { e164: held.e164, display: held.display } : siteConfig.phone;
  } catch {
    return siteConfig.phone;
  }
}

/** The only place that renders a tel: link. Clicks are tracked by the listener below, not by React. */
export function PhoneLink({ placement, children, ...rest }: PhoneLinkProps) {
  const phone = shownPhone();
  return (
    <a {...rest} href={`tel:${phone.e164}`} {...{ [PLACEMENT_ATTRIBUTE]: placement }}>
      {children ?? phone.display}
    </a>
  );
}

type Gtag = (command: "event", name: string, params: Record<string, unknown>) => void;

/** What the listener needs besides the page: constants of app/lib/site-events.ts, passed in as plain values. */
interface CountingSettings {
  endpoint: string;
  pageViewEvent: string;
  formAttribute: string;
  visit: VisitSettings;
}

/**
 * Counts page views, call clicks and form starts (decisions 070 and 121) with the site's own endpoint, and sends
 * phone_click for every click on a PhoneLink when an analytics function exists. It runs as an inline script in the head,
 * so clicks made before the app's scripts load (they start after the load event) are counted too; sendBeacon
 * queues the request and returns at once, so the tel: navigation is never delayed. The visit's attribution is
 * kept once the page has painted, or at the first count before that: the first use of sessionStorage takes
 * milliseconds that would otherwise delay the first paint. It must stay self-contained: it is serialised with
 * Function#toString.
 */
function trackPhoneClicks(
  doc: Document,
  win: Window & { gtag?: Gtag },
  attribute: string,
  settings: CountingSettings,
  after: typeof afterLoadAndFirstPaint,
  keepVisit: typeof keepVisitAttribution,
) {
  let kept: Record<string, string> | undefined;
  const visit = () => (kept ??= keepVisit(doc, win, settings.visit));
  const count = (kind: "view" | "call" | "form", placement?: string | null) => {
    const { utm_source, utm_medium, utm_campaign, referrer_host } = visit();
    try {
      win.navigator.sendBeacon(
        settings.endpoint,
        JSON.stringify({
          kind,
          path: win.location.pathname.replace(/(.)\/+$/, "$1"),
          placement: placement ?? undefined,
          source: utm_source || referrer_host,
          medium: utm_medium,
          campaign: utm_campaign,
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
  // This document's view once it has loaded and painted, so the beacon never competes with the page; later
  // views are client-side navigations, announced by the app.
  doc.addEventListener(settings.pageViewEvent, () => {
    formStarted = false;
    count("view");
  });
  after(doc, win, () => count("view"));
}

/**
 * The listener as an inline script. Only the server renders it (prerendered HTML): the browser never runs this
 * again, so the page's own bundle leaves it out.
 */
export function phoneClickTrackingScript(): string {
  const settings: CountingSettings = {
    endpoint: SITE_EVENTS_ENDPOINT,
    pageViewEvent: PAGE_VIEW_EVENT,
    formAttribute: COUNTED_FORM_ATTRIBUTE,
    visit: visitSettings,
  };
  return `(${trackPhoneClicks.toString()})(document, window, ${JSON.stringify(PLACEMENT_ATTRIBUTE)}, ${JSON.stringify(settings)}, ${afterLoadAndFirstPaint.toString()}, ${keepVisitAttribution.toString()});`;
}

/** What the number script needs: constants of app/lib, passed in as plain values. */
interface TrackingNumberSettings {
  endpoint: string;
  storageKey: string;
  visit: VisitSettings;
  pageViewEvent: string;
  site: { e164: string; display: string };
}

/**
 * Per-visit tracking numbers (docs/decisions/110). A visit whose first page carried a campaign asks the server
 * for a number from the pool on every page view (which also keeps it held), and every tel: link's href and the
 * number it shows are rewritten to it. A number the visit already holds is written in while the page is still
 * being parsed, before the first paint; on the landing page it is written in when the answer comes, before the
 * app hydrates (after the load event). The number has the site number's shape, so it takes the same room.
 * It keeps the visit's attribution at once, since it needs it before the first paint. Self-contained: serialised
 * with toString.
 */
function showTrackingNumber(
  doc: Document,
  win: Window,
  settings: TrackingNumberSettings,
  keepVisit: typeof keepVisitAttribution,
) {
  const visit = keepVisit(doc, win, settings.visit);
  let held: { hold: string; e164: string; display: string } | null;
  try {
    held = JSON.parse(win.sessionStorage.getItem(settings.storageKey) ?? "null") as typeof held;
  } catch {
    return;
  }
  if (!Object.keys(visit).some((name) => name !== "landing_path" && name !== "referrer_host")) return;
  const shownBefore = new Set([settings.site.display]);
  let shown = held ?? settings.site;
  const rewrite = () => {
    for (const link of doc.querySelectorAll<HTMLAnchorElement>('a[href^="tel:"]')) {
      if (link.getAttribute("href") !== `tel:${shown.e164}`) link.setAttribute("href", `tel:${shown.e164}`);
      const texts = doc.createTreeWalker(link, NodeFilter.SHOW_TEXT);
      for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        for (const old of shownBefore) {
          if (old !== shown.display && node.nodeValue?.includes(old)) {
            node.nodeValue = node.nodeValue.split(old).join(shown.display);
          }
        }
      }
    }
  };
  const show = (next: typeof held) => {
    shownBefore.add(shown.display);
    shown = next ?? settings.site;
    try {
      if (next) win.sessionStorage.setItem(settings.storageKey, JSON.stringify(next));
      else win.sessionStorage.removeItem(settings.storageKey);
    } catch {
      // Without storage the number holds for this page only.
    }
    held = next;
    rewrite();
  };
  if (held) {
    // Links are rewritten as the parser adds them, so the page is never painted with the other number.
    const parsing = new MutationObserver(rewrite);
    parsing.observe(doc.documentElement, { childList: true, subtree: true });
    doc.addEventListener("DOMContentLoaded", () => {
      parsing.disconnect();
      rewrite();
    });
  }
  const ask = () => {
    win
      .fetch(settings.endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        credentials: "omit",
        body: JSON.stringify({ ...(held ? { hold: held.hold } : {}), visit }),
      })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((answer: Partial<NonNullable<typeof held>>) => {
        const next = answer.hold && answer.e164 && answer.display ? (answer as NonNullable<typeof held>) : null;
        if (next?.e164 !== held?.e164 || next?.hold !== held?.hold) show(next);
      })
      .catch(() => {
        // The server did not answer: the page keeps the number it shows.
      });
  };
  ask();
  // A later page of the visit, shown by the app, keeps the number held too.
  doc.addEventListener(settings.pageViewEvent, ask);
}

/** The per-visit number script, inline in every public page when call tracking has a pool. */
export function trackingNumberScript(): string {
  const settings: TrackingNumberSettings = {
    endpoint: TRACKING_NUMBER_ENDPOINT,
    storageKey: TRACKING_NUMBER_STORAGE_KEY,
    visit: visitSettings,
    pageViewEvent: PAGE_VIEW_EVENT,
    site: siteConfig.phone,
  };
  return `(${showTrackingNumber.toString()})(document, window, ${JSON.stringify(settings)}, ${keepVisitAttribution.toString()});`;
}
