import { describe, expect, it } from "vitest";
import { fillCompany, fillCompanyDeep } from "./text.ts";

describe("fillCompany", () => {
  it("replaces every placeholder", () => {
    expect(fillCompany("{company} is here. Call {company}.", "Acme")).toBe("Acme is here. Call Acme.");
  });
});

describe("fillCompanyDeep", () => {
  it("fills strings at any depth and keeps other values and the input as they were", () => {
    const content = {
      kind: "story",
      heading: { title: "About {company}" },
      paragraphs: ["{company} started in 2009.", "No placeholder."],
      rating: 5,
      open: true,
      missing: undefined,
      empty: null,
    };
    expect(fillCompanyDeep(content, "Acme")).toEqual({
      kind: "story",
      heading: { title: "About Acme" },
      paragraphs: ["Acme started in 2009.", "No placeholder."],
      rating: 5,
      open: true,
      missing: undefined,
      empty: null,
    });
    expect(content.heading.title).toBe("About {company}");
  });
});
