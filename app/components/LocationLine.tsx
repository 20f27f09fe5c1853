import { Icon } from "~/components/Icon.tsx";
import { LOCATION_GENERIC_TEXT, locationLineText } from "~/lib/location.ts";
import { useDetectedLocation } from "~/lib/use-detected-location.ts";

/**
 * The "Serving {city}, {state}" line of the water heater and plumbers pages.
 * Until detection finishes it reads "Detecting Your Location..."; browsers with scripting off
 * never detect, so they are shown the generic line instead (docs/decisions/020-location-line-without-js.md).
 *
 * The line keeps one line's height and the same elements in every state: when detection answers,
 * only its text changes, so nothing in the hero moves or is painted anew (the hero's heading and
 * lead stay the page's largest content, painted from the HTML).
 */
export function LocationLine({ className = "" }: { className?: string }) {
  const state = useDetectedLocation();
  return (
    <p
      className={`flex w-fit max-w-full items-center gap-2 font-semibold whitespace-nowrap ${className}`}
      aria-live="polite"
      data-testid="location-line"
    >
      <Icon name="map-pin" className="size-5 shrink-0" />
      <span className="truncate [@media(scripting:none)]:hidden">{locationLineText(state)}</span>
      <span className="hidden truncate [@media(scripting:none)]:block">{LOCATION_GENERIC_TEXT}</span>
    </p>
  );
}
