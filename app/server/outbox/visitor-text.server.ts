import { knownService } from "~/content/partner-services.ts";

/**
 * What a message may carry of text a visitor typed. Texts, push notifications and email subjects are where a
 * reader trusts what they see next to the real link, so visitor text reaches them only as a known value (the
 * service as one of the site's service names) or on one line with every link removed.
 */

/** A web address, with or without its scheme (`https://…`, `www.…`, `evil.example/r/x`), or an email's domain. */
const LINK = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.)\S*|\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b(?:[/?#]\S*)?/gi;
const LINK_REMOVED = "[link removed]";

/** The text on one line, links removed, at most `maxLength` characters. */
export function visitorTextForMessages(text: string, maxLength: number): string {
  const line = text.replace(LINK, LINK_REMOVED).replace(/\s+/g, " ").trim();
  return line.length > maxLength ? `${line.slice(0, maxLength - 1).trimEnd()}…` : line;
}

/** The service a visitor asked for: the site's own name for it when it is one, else their words without links. */
export function serviceForMessages(service: string): string {
  return knownService(service) ?? visitorTextForMessages(service, 60);
}
