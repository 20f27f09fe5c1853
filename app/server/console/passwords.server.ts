import { hash, verify } from "@node-rs/argon2";

/** An argon2id hash (the package's default algorithm) in PHC string format, with a random salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verified against when the email is unknown, so that the answer takes as long as for a wrong password
// and its timing does not tell which emails have accounts.
const dummyHash = hash("no operator has this password");

/** Whether `password` matches `passwordHash`; with no hash (unknown account), false after the same work. */
export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  try {
    const matches = await verify(passwordHash ?? (await dummyHash), password);
    return passwordHash !== undefined && matches;
  } catch {
    return false;
  }
}
