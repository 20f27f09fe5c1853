import { envSchema } from "./env.server.ts";
import type { PublicSiteConfig } from "./site.ts";

/**
 * Whether visitors are shown the company name or phone number the project ships with (COMPANY_NAME, PHONE_DISPLAY,
 * PHONE_E164 left at their defaults) rather than the operator's own.
 */
export function showsShippedContact(config: Pick<PublicSiteConfig, "companyName" | "phone">): boolean {
  const { shape } = envSchema;
  return (
    config.companyName === shape.COMPANY_NAME.parse(undefined) ||
    config.phone.display === shape.PHONE_DISPLAY.parse(undefined) ||
    config.phone.e164 === shape.PHONE_E164.parse(undefined)
  );
}
