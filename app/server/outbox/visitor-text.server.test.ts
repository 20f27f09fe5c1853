import { readFileSync } from "node:fs";
import { join } from "node:path";
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
    expect(visitorTextForMessages("write to a@mail.evil.example", 200)).toBe("write to [link removed]");
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

/** linkify-it's corpus: each text with its link, and the link when it is not the whole line (`%` starts a comment). */
function corpus(name: string): { text: string; link: string }[] {
  const lines = readFileSync(join(process.cwd(), "tests/fixtures/linkify-it", name), "utf8")
    .split(/\r?\n/)
    .map((line) => line.replace(/^%.*/, ""));
  const cases: { text: string; link: string }[] = [];
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!;
    if (!text.trim()) continue;
    const next = lines[index + 1] ?? "";
    if (next.trim()) index++;
    cases.push({ text, link: next.trim() ? next : text });
  }
  return cases;
}

describe("everything a phone would make tappable is removed", () => {
  test("the review's bare IP address and internationalised domain", () => {
    expect(visitorTextForMessages("pay at 93.184.216.34/pay or пример.рф/pay now", 200)).toBe(
      "pay at [link removed] or [link removed] now",
    );
    expect(visitorTextForMessages("call 4.4.4.4 or пример.испытание/pay or xn--e1afmkfd.xn--p1ai", 200)).toBe(
      "call [link removed] or [link removed] or [link removed]",
    );
  });

  test.each(corpus("links.txt"))("linkify-it's link in $text", ({ text, link }) => {
    const kept = visitorTextForMessages(text, 10_000);
    expect(kept).toContain("[link removed]");
    expect(kept).not.toContain(link);
  });

  test("numbers, times and versions that are not links are kept (linkify-it's IPv4 cases among them)", () => {
    for (const text of ["1.2.3.4.5", "1.2.3", "1.2.3.400", "1000.2.3.4", "$1,250.50", "3.5 psi at 10.30am", "v2.1"]) {
      expect(visitorTextForMessages(text, 200)).toBe(text);
    }
  });
});
