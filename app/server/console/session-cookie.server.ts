/**
 * The console's session cookie, never readable by scripts. Its path is the whole site, not /admin: the
 * console's own data requests go to /admin.data, which a cookie for /admin would not reach.
 */
export const SESSION_COOKIE = "plumbline_session";
const SESSION_COOKIE_PATH = "/";

/** A session ends after this long without a request… */
export const SESSION_IDLE_SECONDS = 12 * 3_600;
/** …and this long after sign-in, whatever the activity. */
export const SESSION_MAX_SECONDS = 7 * 24 * 3_600;

/**
 * The Set-Cookie value for a new session. Secure when the site is served over https (SITE_URL), so the
 * cookie never travels in clear; left off on http://localhost, where browsers would drop it.
 */
export function sessionCookie(sessionId: string, siteUrl: string): string {
  const secure = new URL(siteUrl).protocol === "https:" ? "; Secure" : "";
  return `${SESSION_COOKIE}=${sessionId}; Path=${SESSION_COOKIE_PATH}; Max-Age=${SESSION_MAX_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}

/** The Set-Cookie value that deletes the session cookie. */
export function clearedSessionCookie(siteUrl: string): string {
  const secure = new URL(siteUrl).protocol === "https:" ? "; Secure" : "";
  return `${SESSION_COOKIE}=; Path=${SESSION_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
}

/** The session id from a Cookie header, if it has a well-formed one. */
export function sessionIdFromCookies(cookieHeader: string | null | undefined): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, value] = part.trim().split("=", 2);
    if (name === SESSION_COOKIE && value && /^[A-Za-z0-9_-]{43}$/.test(value)) return value;
  }
  return undefined;
}
