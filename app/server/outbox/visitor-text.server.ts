import { LinkifyIt } from "linkify-it";
import { knownService } from "~/content/partner-services.ts";

/**
 * What a message may carry of text a visitor typed. Texts, push notifications and email subjects are where a
 * reader trusts what they see next to the real link, so visitor text reaches them only as a known value (the
 * service as one of the site's service names) or on one line with everything a phone would make tappable removed.
 */

/**
 * Links as linkify-it finds them, with its fuzzy rules on: addresses without a scheme (`example.com/pay`,
 * internationalised ones like `пример.рф/pay`), bare IPv4 addresses (`93.184.216.34/pay`) and emails.
 */
const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyIP: true, fuzzyEmail: true });

/**
 * What linkify-it leaves and a phone may still link, since phones know every top-level domain and linkify-it only
 * the common ones: any scheme (`https://…`), `www.…`, and any `host.tld` with a path, in any script or punycode
 * (`evil.example/r/x`, `a@mail.evil.example`'s domain).
 */
const LINK =
  /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.)\S*|(?<![\p{L}\p{N}_-])(?:[\p{L}\p{N}-]+\.)+(?:\p{L}{2,}|xn--[a-z0-9-]+)(?![\p{L}\p{N}_-])(?:[/?#]\S*)?/giu;
const LINK_REMOVED = "[link removed]";

function withoutLinks(text: string): string {
  let kept = "";
  let from = 0;
  for (const link of linkify.match(text) ?? []) {
    kept += `${text.slice(from, link.index)}${LINK_REMOVED}`;
    from = link.lastIndex;
  }
  return `${kept}${text.slice(from)}`.replace(LINK, LINK_REMOVED);
}

/** The text on one line, links removed, at most `maxLength` characters. */
export function visitorTextForMessages(text: string, maxLength: number): string {
  const line = withoutLinks(text.replace(/\s+/g, " ")).trim();
  return line.length > maxLength ? `${line.slice(0, maxLength - 1).trimEnd()}…` : line;
}

/** The service a visitor asked for: the site's own name for it when it is one, else their words without links. */
export function serviceForMessages(service: string): string {
  return knownService(service) ?? visitorTextForMessages(service, 60);
}
