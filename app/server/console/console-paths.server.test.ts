import { describe, expect, test } from "vitest";
import { isConsolePath } from "./console-paths.server.ts";

describe("console paths", () => {
  test.each([
    "/admin",
    "/admin/",
    "/admin/login",
    "/admin.data",
    "/admin/leads/1.data",
    "/admin/_.data",
    "//admin",
    "/ADMIN",
    "/%61dmin",
  ])("%s is the console", (path) => expect(isConsolePath(path)).toBe(true));
  test.each(["/", "/administrator", "/contact", "/admin-tips", "/%E0%A4%A"])("%s is not", (path) =>
    expect(isConsolePath(path)).toBe(false),
  );
});
