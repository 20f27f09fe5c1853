import { Icon } from "~/components/Icon.tsx";
import { LOCATION_GENERIC_TEXT, locationLineText } from "~/lib/location.ts";
import { useDetectedLocation } from "~/lib/use-detected-location.ts";

/**
 * The "Serving {city}, {state}" line of the water heater and plumbers pages.
 * Until detection finishes it reads "Detecting Your Location..."; browsers with scripting off
 * never detect, so they are shown the generic line instead (docs/decisions/020-location-line-without-js.md).
 */
export function LocationLine({ className = "" }: { className?: string }) {
  const state = useDetectedLocation();
  return (
    <p
      className={`inline-flex items-center gap-2 font-semibold text-brand-700 ${className}`}
      aria-live="polite"
      data-testid="location-line"
    >
      <Icon name="map-pin" className="size-5 shrink-0" />
      {state.status === "loading" ? (
        <>
          <span className="[@media(scripting:none)]:hidden">{locationLineText(state)}</span>
          <span className="hidden [@media(scripting:none)]:inline">{LOCATION_GENERIC_TEXT}</span>
        </>
      ) : (
        <span>{locationLineText(state)}</span>
      )}
    </p>
  );
}
