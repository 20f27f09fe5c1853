import type { Database } from "../db/db.server.ts";
import { authenticate, operatorEmail } from "./operators.server.ts";
import { MAX_PASSWORD_LENGTH } from "./passwords.server.ts";
import { clearedSessionCookie, sessionCookie, sessionIdFromCookies } from "./session-cookie.server.ts";
import { createSessionStore, type SessionStore } from "./sessions.server.ts";
import { createSignInLimit } from "./sign-in-limit.server.ts";

export type SignInResult =
  { outcome: "signed-in"; setCookie: string } | { outcome: "wrong" } | { outcome: "locked"; retryAfterSeconds: number };

/** Signing operators in and out of the console; the gate in front of /admin resolves their sessions. */
export interface ConsoleAuth {
  sessions: SessionStore;
  signIn(form: { email: unknown; password: unknown }, clientIp: string): Promise<SignInResult>;
  /** Ends the session in the Cookie header, if any, and returns the Set-Cookie value that clears it. */
  signOut(cookieHeader: string | null): Promise<string>;
  /** Hourly: drops expired sessions and ended sign-in windows. */
  prune(): Promise<void>;
}

export function createConsoleAuth(options: { db: Database; sessionSecret: string; siteUrl: string }): ConsoleAuth {
  const sessions = createSessionStore(options.db, options.sessionSecret);
  const limit = createSignInLimit(options.db);
  return {
    sessions,
    async signIn(form, clientIp) {
      const email = operatorEmail.safeParse(form.email);
      const password = typeof form.password === "string" ? form.password : "";
      // A malformed email is counted as a wrong one, under the address it was typed as.
      const accountKey = email.success
        ? email.data
        : String(form.email ?? "")
            .slice(0, 254)
            .toLowerCase();
      // Counted before the password is checked: parallel guesses cannot all get past the count.
      const attempt = await limit.attempt(accountKey, clientIp);
      if (!attempt.allowed) return { outcome: "locked", retryAfterSeconds: attempt.retryAfterSeconds };
      const operator =
        email.success && password.length <= MAX_PASSWORD_LENGTH
          ? await authenticate(options.db, email.data, password)
          : null;
      if (!operator) return { outcome: "wrong" };
      await limit.succeeded(accountKey, clientIp);
      const sessionId = await sessions.start(operator.id);
      return { outcome: "signed-in", setCookie: sessionCookie(sessionId, options.siteUrl) };
    },
    async signOut(cookieHeader) {
      const sessionId = sessionIdFromCookies(cookieHeader);
      if (sessionId) await sessions.end(sessionId);
      return clearedSessionCookie(options.siteUrl);
    },
    async prune() {
      await sessions.prune();
      await limit.prune();
    },
  };
}
