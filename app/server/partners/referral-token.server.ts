import { createHmac, timingSafeEqual } from "node:crypto";
import { isRowId } from "../../lib/row-id.ts";

/**
 * A referral link's token: the referral's id and an HMAC of it under a server key. A token whose signature
 * does not match was not issued here (forged, or mistyped) and is refused before any database lookup; its
 * expiry and single use are the referral row's.
 */

/** The most a token can be: a UUID, a dot and a base64url SHA-256. */
const TOKEN_MAX_LENGTH = 36 + 1 + 43;

function signature(key: string, referralId: string): Buffer {
  return createHmac("sha256", key).update(`referral:${referralId}`).digest();
}

export function referralToken(key: string, referralId: string): string {
  return `${referralId}.${signature(key, referralId).toString("base64url")}`;
}

/** The referral a token names, or null when it is malformed or its signature is wrong. */
export function verifyReferralToken(key: string, token: string): string | null {
  if (token.length > TOKEN_MAX_LENGTH) return null;
  const [referralId, signed, extra] = token.split(".");
  if (extra !== undefined || !isRowId(referralId) || !signed) return null;
  const given = Buffer.from(signed, "base64url");
  const expected = signature(key, referralId.toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected) ? referralId.toLowerCase() : null;
}
