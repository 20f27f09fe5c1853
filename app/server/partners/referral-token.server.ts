import { createHmac, timingSafeEqual } from "node:crypto";
import { isRowId } from "../../lib/row-id.ts";

/**
 * A referral link's token: the referral's id and an HMAC of it under a server key. A token whose signature
 * does not match was not issued here (forged, or mistyped) and is refused before any database lookup; its
 * expiry and single use are the referral row's.
 */

/** The most a token can be: a UUID, a dot and a base64url SHA-256. */
const TOKEN_MAX_LENGTH = 36 + 1 + 43;

/** What a token opens: a referral's page, a statement's printable page, or a charged call's dispute page. */
type TokenPurpose = "referral" | "statement" | "call-dispute";

function signature(key: string, id: string, purpose: TokenPurpose): string {
  return createHmac("sha256", key).update(`${purpose}:${id}`).digest("base64url");
}

export function referralToken(key: string, id: string, purpose: TokenPurpose = "referral"): string {
  return `${id}.${signature(key, id, purpose)}`;
}

/**
 * The row a token names, or null when it is malformed or its signature is wrong (or is another purpose's). The
 * signature is compared as the text that was issued: decoding would let other spellings of the same bytes open.
 */
export function verifyReferralToken(key: string, token: string, purpose: TokenPurpose = "referral"): string | null {
  if (token.length > TOKEN_MAX_LENGTH) return null;
  const [id, signed, extra] = token.split(".");
  if (extra !== undefined || !isRowId(id) || !signed) return null;
  const given = Buffer.from(signed);
  const expected = Buffer.from(signature(key, id.toLowerCase(), purpose));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id.toLowerCase() : null;
}
