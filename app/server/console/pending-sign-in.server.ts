import { createHmac, timingSafeEqual } from "node:crypto";

/** How long an operator has, after a right password, to type the code. */
const PENDING_SECONDS = 5 * 60;

interface PendingOperator {
  id: string;
  email: string;
  /** The operator's credentials stamp when the password was right: a new password or two-step secret voids it. */
  stamp: string;
}

/**
 * The step between a right password and the code, carried by the code form itself (a hidden field; no
 * cookie, no row): the operator's id and email, the stamp of their credentials and an expiry, signed with the
 * session key. It proves only that the password was right a few minutes ago, for the password and two-step secret
 * the operator has now; the code still has to be right, and each try is counted.
 */
export function pendingSignIn(secret: string) {
  const sign = (payload: string) =>
    createHmac("sha256", secret).update(`pending-sign-in:${payload}`).digest("base64url");
  return {
    issue(operator: PendingOperator): string {
      const expires = Math.floor(Date.now() / 1000) + PENDING_SECONDS;
      const { id, email, stamp } = operator;
      const payload = Buffer.from(JSON.stringify({ id, email, stamp, expires })).toString("base64url");
      return `${payload}.${sign(payload)}`;
    },
    /** The operator the token was issued to, or null when it is forged, altered or expired. */
    read(token: string): PendingOperator | null {
      const [payload = "", signature = ""] = token.split(".");
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      if (token.length > 1_000 || given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const { id, email, stamp, expires } = JSON.parse(Buffer.from(payload, "base64url").toString()) as {
          id: string;
          email: string;
          stamp: string;
          expires: number;
        };
        return expires > Date.now() / 1000 ? { id, email, stamp } : null;
      } catch {
        return null;
      }
    },
  };
}
