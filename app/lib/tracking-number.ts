/**
 * Per-visit tracking numbers as the page and the server share them: the endpoint the inline script asks, where
 * the visit keeps its number (sessionStorage, gone with the tab), and how a number is written.
 */

export const TRACKING_NUMBER_ENDPOINT = "/api/calls/number";
export const TRACKING_NUMBER_STORAGE_KEY = "plumbline:number";

/** What the endpoint answers, and the visit keeps, when it holds a number. */
export interface TrackingNumber {
  /** The visit's hold, which keeps the number for it while it browses. */
  hold: string;
  e164: string;
  display: string;
}

/**
 * A number written the way the site writes its own (PHONE_DISPLAY): the same separators with the other
 * number's digits, so it takes the same room on the page. The template's digits are filled from the right;
 * digits left over go in front.
 */
export function formatLike(template: string, e164: string): string {
  const digits = e164.replace(/\D/g, "").split("");
  let formatted = "";
  for (let index = template.length - 1; index >= 0 && digits.length > 0; index--) {
    const character = template[index]!;
    formatted = (/\d/.test(character) ? digits.pop()! : character) + formatted;
  }
  return digits.length > 0 ? `${digits.join("")} ${formatted}` : formatted.replace(/^\D+/, "");
}
