import { describe, expect, test } from "vitest";
import { csvCell } from "./exports.server.ts";

describe("CSV cells", () => {
  test("are never run as formulas, even after leading spaces", () => {
    for (const start of ["=", "+", "-", "@"]) {
      expect(csvCell(`${start}1+2`)).toBe(`'${start}1+2`);
      expect(csvCell(`   ${start}1+2`)).toBe(`'   ${start}1+2`);
    }
    expect(csvCell("\tcmd")).toBe("'\tcmd");
    expect(csvCell("\r=1")).toBe(`"'\r=1"`);
    expect(csvCell(" \t=1")).toBe("' \t=1");
    expect(csvCell("-2.5+cmd|' /C calc'!A0")).toBe("'-2.5+cmd|' /C calc'!A0");
    expect(csvCell("-1e3")).toBe("'-1e3");
  });

  test("keep a negative amount a number a spreadsheet can sum", () => {
    expect(csvCell("-20.00")).toBe("-20.00");
    expect(csvCell("-7")).toBe("-7");
  });

  test("are quoted when they hold a comma, a semicolon, a quote or a line break", () => {
    expect(csvCell("Leak, urgent")).toBe(`"Leak, urgent"`);
    // Spreadsheets in locales with a decimal comma split on semicolons.
    expect(csvCell("Leak; urgent")).toBe(`"Leak; urgent"`);
    expect(csvCell('=HYPERLINK("http://evil.example";"x")')).toBe(`"'=HYPERLINK(""http://evil.example"";""x"")"`);
    expect(csvCell("two\nlines")).toBe(`"two\nlines"`);
  });

  test("keep ordinary text, phone numbers and times as they are", () => {
    expect(csvCell("Ann Lee")).toBe("Ann Lee");
    expect(csvCell("(555) 012-3456")).toBe("(555) 012-3456");
    expect(csvCell("555-0199")).toBe("555-0199");
    expect(csvCell(new Date("2026-01-05T10:00:00Z"))).toBe("2026-01-05T10:00:00.000Z");
    expect(csvCell(null)).toBe("");
  });
});
