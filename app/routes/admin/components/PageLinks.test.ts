import { describe, expect, it } from "vitest";
import { countOf, listPageHref } from "./PageLinks.tsx";

const ID = "00000000-0000-4000-8000-000000000009";

describe("listPageHref", () => {
  it("keeps the search and filter and the row the page starts at, and leaves out empty fields", () => {
    expect(listPageHref("/admin", { q: "", status: "" })).toBe("/admin");
    expect(listPageHref("/admin", { q: "555 01", status: "" }, { before: ID })).toBe(`/admin?q=555+01&before=${ID}`);
    expect(listPageHref("/admin/calls", { q: "", outcome: "Missed" }, { after: ID })).toBe(
      `/admin/calls?outcome=Missed&after=${ID}`,
    );
  });
});

describe("countOf", () => {
  it("counts up to the list's limit and says more past it", () => {
    expect(countOf(1, 10_000, "call", "calls")).toBe("1 call");
    expect(countOf(10_000, 10_000, "call", "calls")).toBe("10,000 calls");
    expect(countOf(10_001, 10_000, "call", "calls")).toBe("More than 10,000 calls");
    expect(countOf(1_001, 1_000, "call", "calls")).toBe("More than 1,000 calls");
  });
});
