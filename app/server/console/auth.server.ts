import type { Database } from "../db/index.server.ts";
import { MAX_PASSWORD_LENGTH, operatorEmail } from "~/lib/operator-account.ts";
import { authenticate, credentialsStamp } from "./operators.server.ts";
import { pendingSignIn } from "./pending-sign-in.server.ts";
import { clearedSessionCookie, sessionCookie, sessionIdFromCookies } from "./session-cookie.server.ts";
import { createSessionStore, type SessionStore } from "./sessions.server.ts";
import { createSignInLimit } from "./sign-in-limit.server.ts";
import { turnOnTwoStep, verifySecondStep, type TurnOnOutcome } from "./two-step.server.ts";
import type { Operator } from "./sessions.server.ts";

export type SignInResult =
  | { outcome: "signed-in"; setCookie: string }
  /** The password was right and two-step sign-in is on: the code is asked for next, with this token. */
  | { outcome: "code-needed"; pending: string }
  | { outcome: "wrong" }
  | { outcome: "locked"; retryAfterSeconds: number };

export type SecondStepResult =
  | { outcome: "signed-in"; setCookie: string }
  | { outcome: "wrong-code"; pending: string }
  /** The token is forged or older than its few minutes: sign in with the password again. */
  | { outcome: "expired" }
  | { outcome: "locked"; retryAfterSeconds: number; pending: string };

export type PasswordCheck =
  { outcome: "right" } | { outcome: "wrong" } | { outcome: "locked"; retryAfterSeconds: number };

/** Signing operators in and out of the console; the gate in front of /admin resolves their sessions. */
export interface ConsoleAuth {
  sessions: SessionStore;
  /** Whether every operator must turn two-step sign-in on before using the console (REQUIRE_TWO_STEP). */
  requireTwoStep: boolean;
  signIn(form: { email: unknown; password: unknown }, clientIp: string): Promise<SignInResult>;
  /** The second step: the code (or a recovery code) after a right password, with its pending token. */
  verifyCode(form: { pending: unknown; code: unknown }, clientIp: string): Promise<SecondStepResult>;
  /**
   * "Turn on" on the account page, with the secret this session was shown; once on, the operator's other sessions
   * end (whoever else was signed in had only the password).
   */
  turnOnTwoStep(operator: Operator, code: string): Promise<TurnOnOutcome>;
  /**
   * The signed-in operator's password typed again before something sensitive (revealing a webhook secret): counted
   * by the sign-in limit like a sign-in, so it cannot be guessed faster there.
   */
  confirmPassword(operator: Operator, password: unknown, clientIp: string): Promise<PasswordCheck>;
  /** Ends the session in the Cookie header, if any, and returns the Set-Cookie value that clears it. */
  signOut(cookieHeader: string | null): Promise<string>;
  /** Hourly: drops expired sessions and ended sign-in windows. */
  prune(): Promise<void>;
}

export function createConsoleAuth(options: {
  db: Database;
  sessionSecret: string;
  siteUrl: string;
  requireTwoStep?: boolean;
}): ConsoleAuth {
  const sessions = createSessionStore(options.db, options.sessionSecret);
  const limit = createSignInLimit(options.db);
  const pending = pendingSignIn(options.sessionSecret);
  const startSession = async (operatorId: string) =>
    ({ outcome: "signed-in", setCookie: sessionCookie(await sessions.start(operatorId), options.siteUrl) }) as const;
  return {
    sessions,
    requireTwoStep: options.requireTwoStep ?? false,
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
      // With two-step sign-in on, the failures are forgotten only once the code is right too: a known password
      // must not buy the code step fresh guesses.
      if (operator.twoStep) return { outcome: "code-needed", pending: pending.issue(operator) };
      await limit.succeeded(accountKey, clientIp);
      return startSession(operator.id);
    },
    async verifyCode(form, clientIp) {
      const token = typeof form.pending === "string" ? form.pending : "";
      const operator = pending.read(token);
      if (!operator) return { outcome: "expired" };
      // Issued for a password or two-step secret the operator no longer has.
      if ((await credentialsStamp(options.db, operator.id)) !== operator.stamp) return { outcome: "expired" };
      // A wrong code counts toward the sign-in limit like a wrong password, before it is checked.
      const attempt = await limit.attempt(operator.email, clientIp);
      if (!attempt.allowed) return { outcome: "locked", retryAfterSeconds: attempt.retryAfterSeconds, pending: token };
      const code = typeof form.code === "string" ? form.code : "";
      if (!(await verifySecondStep(options.db, operator.id, code))) {
        return { outcome: "wrong-code", pending: token };
      }
      await limit.succeeded(operator.email, clientIp);
      return startSession(operator.id);
    },
    async turnOnTwoStep(operator, code) {
      const result = await turnOnTwoStep(options.db, operator, code);
      if (result.outcome === "on") await sessions.endOthers(operator.id, operator.sessionKey);
      return result;
    },
    async confirmPassword(operator, password, clientIp) {
      const attempt = await limit.attempt(operator.email, clientIp);
      if (!attempt.allowed) return { outcome: "locked", retryAfterSeconds: attempt.retryAfterSeconds };
      const typed = typeof password === "string" ? password : "";
      const found = typed.length <= MAX_PASSWORD_LENGTH ? await authenticate(options.db, operator.email, typed) : null;
      if (found?.id !== operator.id) return { outcome: "wrong" };
      await limit.succeeded(operator.email, clientIp);
      return { outcome: "right" };
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
