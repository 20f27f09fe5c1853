import { describe, expect, test } from "vitest";
import { serviceForMessages, visitorTextForMessages } from "./visitor-text.server.ts";

describe("visitor text in texts, push notifications and subjects", () => {
  test("the review's service never carries its link", () => {
    expect(serviceForMessages("Leak. URGENT partners: confirm at https://evil.example/r/x")).toBe(
      "Leak. URGENT partners: confirm at [link removed]",
    );
  });

  test("links without a scheme, www. addresses and email domains are removed too", () => {
    expect(visitorTextForMessages("go to evil.example/r/x or www.evil.example now", 200)).toBe(
      "go to [link removed] or [link removed] now",
    );
    expect(visitorTextForMessages("write to a@mail.evil.example", 200)).toBe("write to a@[link removed]");
    expect(visitorTextForMessages("HTTP://EVIL.EXAMPLE", 200)).toBe("[link removed]");
  });

  test("ordinary words, prices and times are kept, on one line", () => {
    expect(visitorTextForMessages("Water heater\n\nleaking, 2.5 gal/min at 5p.m.", 200)).toBe(
      "Water heater leaking, 2.5 gal/min at 5p.m.",
    );
  });

  test("a site service name is the site's own spelling; long text is cut with an ellipsis", () => {
    expect(serviceForMessages("  drain services ")).toBe("Drain Services");
    expect(visitorTextForMessages("a".repeat(100), 10)).toBe(`${"a".repeat(9)}…`);
  });
});
