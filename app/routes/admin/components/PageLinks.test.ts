import { describe, expect, it } from "vitest";
import { listPageHref } from "./PageLinks.tsx";

describe("listPageHref", () => {
  it("keeps the search and filter, and leaves out page 1 and empty fields", () => {
    expect(listPageHref("/admin", { q: "", status: "" }, 1)).toBe("/admin");
    expect(listPageHref("/admin", { q: "555 01", status: "" }, 2)).toBe("/admin?q=555+01&page=2");
    expect(listPageHref("/admin/calls", { q: "", outcome: "missed" }, 3)).toBe("/admin/calls?outcome=missed&page=3");
  });
});
