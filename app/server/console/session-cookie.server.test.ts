import { describe, expect, test } from "vitest";
import { clearedSessionCookie, sessionCookie, sessionIdFromCookies } from "./session-cookie.server.ts";

const id = "a".repeat(43);

describe("session cookie", () => {
  test("is HttpOnly, SameSite=Lax, and not Secure on http", () => {
    const cookie = sessionCookie(id, "http://localhost:3000");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/;");
    expect(cookie).not.toContain("Secure");
  });

  test("is Secure when the site is served over https", () => {
    expect(sessionCookie(id, "https://plumbline.example")).toMatch(/; Secure$/);
    expect(clearedSessionCookie("https://plumbline.example")).toMatch(/Max-Age=0;.*; Secure$/);
  });

  test("is read back only when well-formed", () => {
    expect(sessionIdFromCookies(`other=1; plumbline_session=${id}`)).toBe(id);
    expect(sessionIdFromCookies("plumbline_session=short")).toBeUndefined();
    expect(sessionIdFromCookies(undefined)).toBeUndefined();
  });
});
