import { describe, expect, it } from "vitest";
import { fillCompany, fillCompanyDeep, fillPlaceholders, linkSegments } from "./text.ts";

describe("fillPlaceholders", () => {
  it("fills known placeholders, every time they occur, and leaves unknown ones", () => {
    expect(
      fillPlaceholders("{operatorName}, {operatorName} at {operatorEmail} {other}", {
        operatorName: "Acme B.V.",
        operatorEmail: "a@b.example",
      }),
    ).toBe("Acme B.V., Acme B.V. at a@b.example {other}");
    expect(fillCompany("{company} connects you", "Plumbline")).toBe("Plumbline connects you");
  });
});

describe("linkSegments", () => {
  it("splits plain text and links in order", () => {
    expect(linkSegments("See our [Privacy Policy](/privacy) or write to [us](mailto:a@b.example).")).toEqual([
      { text: "See our " },
      { text: "Privacy Policy", href: "/privacy" },
      { text: " or write to " },
      { text: "us", href: "mailto:a@b.example" },
      { text: "." },
    ]);
  });

  it("keeps text without links whole, and a link alone as one segment", () => {
    expect(linkSegments("No links [here] (really).")).toEqual([{ text: "No links [here] (really)." }]);
    expect(linkSegments("[Do Not Sell My Info](/do-not-sell)")).toEqual([
      { text: "Do Not Sell My Info", href: "/do-not-sell" },
    ]);
  });
});

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
