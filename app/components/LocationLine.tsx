/**
 * The "Serving {city}, {state}" line of the water heater and plumbers pages.
 * Placeholder until location detection lands (issue 3): always the generic line.
 */
export function LocationLine({ className = "" }: { className?: string }) {
  return <p className={className}>Serving Your Local Area</p>;
}
