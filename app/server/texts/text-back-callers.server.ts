/**
 * Who a missed call's text-back may go to. The caller ID of a call can be spoofed, and each text costs and speaks
 * for the operator: a text-back goes only to a number shaped like a phone that can receive texts, and never to a
 * caller whose caller ID Twilio's STIR/SHAKEN check failed.
 */

const E164 = /^\+[1-9]\d{6,14}$/;
const NANP = /^\+1([2-9]\d{2})([2-9]\d{2})\d{4}$/;

/**
 * A North American number whose area code is a geographic one (where mobiles are): not toll-free (8XX with equal
 * last digits, and every other "easily recognisable" code N00, N22…N99: premium 900, 500s, 600, 700), not N11, not
 * an area code held for expansion (N9X, 37X, 96X) or special use (456 international inbound, 710 government), and
 * an exchange that is not N11, 555 (directory and fictional) or 976 (premium).
 */
function geographicNanp(number: string): boolean {
  const match = NANP.exec(number);
  if (!match) return false;
  const [areaCode = "", exchange = ""] = match.slice(1);
  if (areaCode[1] === areaCode[2]) return false;
  if (areaCode[1] === "9" || /^(37|96)/.test(areaCode) || areaCode === "456" || areaCode === "710") return false;
  return !(exchange.endsWith("11") || exchange === "555" || exchange === "976");
}

/**
 * Whether a caller ID is shaped like a number a text-back can reach: in North America (+1) a geographic number;
 * elsewhere any E.164 number, since mobile and fixed lines are told apart only by each country's own plan.
 */
export function mobileShaped(number: string): boolean {
  if (!E164.test(number)) return false;
  return number.startsWith("+1") ? geographicNanp(number) : true;
}

/** Twilio's STIR/SHAKEN verdict (`StirVerstat`) says the caller ID failed: `TN-Validation-Failed`, `-A`, `-B`, `-C`. */
export function callerIdFailed(verification: string | null): boolean {
  return verification !== null && /-Failed(?:-[A-Z])?$/i.test(verification);
}
