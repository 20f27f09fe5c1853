import { describe, expect, test } from "vitest";
import { consoleNextPath } from "./next-path.server.ts";

describe("the next path after sign-in", () => {
  test("keeps a console path and its query", () => {
    expect(consoleNextPath("/admin")).toBe("/admin");
    expect(consoleNextPath("/admin/leads/1?x=2")).toBe("/admin/leads/1?x=2");
  });

  test.each([
    "//evil.example",
    "https://evil.example/admin",
    "/admin//evil.example",
    "/\\evil.example",
    "/admin\\@evil.example",
    "/administrator",
    "/contact",
    "javascript:alert(1)",
    "/admin/login?next=/admin",
    "/admin/\t/evil",
    "/admin/../contact",
    undefined,
  ])("sends %s to /admin instead", (raw) => {
    expect(consoleNextPath(raw)).toBe("/admin");
  });
});
