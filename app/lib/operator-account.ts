import { z } from "zod";

/**
 * What an operator's account must be, checked wherever one is made: by the first-run page, by the sign-in form, and
 * by `npm run operator` on the operator's own terminal before the command is sent or the database opened.
 */

/** Passwords shorter than this are refused when an operator is added. */
const MIN_PASSWORD_LENGTH = 12;
/** Longer input is refused before hashing, so a huge body cannot keep the CPU busy. */
export const MAX_PASSWORD_LENGTH = 256;

/** An operator's email as stored and compared: trimmed and lower-cased. */
export const operatorEmail = z.string().trim().toLowerCase().max(254).pipe(z.email());

export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `The password is too long: use at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  return undefined;
}
