import { useEffect, useState } from "react";
import { siteConfig } from "~/config/site.ts";
import { detectLocation, type LocationLineState } from "~/lib/location.ts";

/** Some browsers throw on merely reading sessionStorage when storage is blocked. */
function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Runs location detection once after hydration. The server render, and the first client render, say "loading". */
export function useDetectedLocation(): LocationLineState {
  const [state, setState] = useState<LocationLineState>({ status: "loading" });
  useEffect(() => {
    let current = true;
    detectLocation({
      config: siteConfig.geolocation,
      fetch: window.fetch.bind(window),
      geolocation: navigator.geolocation,
      permissions: navigator.permissions,
      storage: sessionStorageOrUndefined(),
    }).then((location) => {
      if (current) setState(location ? { status: "found", location } : { status: "unknown" });
    });
    return () => {
      current = false;
    };
  }, []);
  return state;
}
