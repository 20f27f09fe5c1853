import type { ComponentProps } from "react";
import { siteConfig } from "~/config/site.ts";

/** Where a call link sits on the page: the spec's placement labels, sent as the event label. */
export type PhonePlacement =
  | "header_banner"
  | "header"
  | "hero"
  | "drain_cleaning"
  | "services"
  | "contact_hero"
  | "sticky_bottom_button"
  | "about_cta"
  | "hero_drain"
  | "faqs_section"
  | "hvac_hero"
  | "quiz_results"
  | "quiz_footer"
  | "plumber-hero"
  | "plumber-list"
  | "plumber-list-bottom";

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

/**
 * Sends phone_click for every click on a PhoneLink, when an analytics function exists.
 * It runs as an inline script in the head, so clicks made before the app's scripts load
 * (they start after the load event) are tracked too. It must stay self-contained: it is
 * serialised with Function#toString.
 */
function trackPhoneClicks(doc: Document, win: Window & { gtag?: Gtag }, attribute: string) {
  doc.addEventListener(
    "click",
    (event) => {
      const target = event.target;
      const link = target instanceof Element ? target.closest(`a[${attribute}]`) : null;
      if (!link || typeof win.gtag !== "function") return;
      win.gtag("event", "phone_click", {
        event_category: "engagement",
        event_label: link.getAttribute(attribute),
        value: 1,
      });
    },
    true,
  );
}

export const phoneClickTrackingScript = `(${trackPhoneClicks.toString()})(document, window, ${JSON.stringify(PLACEMENT_ATTRIBUTE)});`;
