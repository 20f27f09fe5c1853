import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import type { OpenDatabase } from "../db/index.server.ts";
import { csvCell, csvCellSql } from "./csv-cells.server.ts";

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

/** Cells near each of the rules' edges: formulas after every kind of space, numbers, separators, quotes, breaks. */
const EDGE_CELLS = [
  ...["=", "+", "-", "@"].flatMap((start) => [
    `${start}1+2`,
    `   ${start}1`,
    `\u00a0${start}1`,
    `\u2003\u3000${start}1`,
  ]),
  ...["\t", "\n", "\v", "\f", "\r", "\u1680", "\u2028", "\u202f", "\ufeff"].map((space) => `${space}=1`),
  "\tcmd",
  "\rplain",
  "\u2000x",
  "-20.00",
  "-7",
  "-7.",
  "-1e3",
  "- 5",
  '=HYPERLINK("http://evil.example";"x")',
  "Leak, urgent",
  "Leak; urgent",
  'say "hi"',
  "two\nlines",
  "two\r\nlines",
  "Ann Lee",
  "(555) 012-3456",
  "Zoë Ünal – 東京",
  "a=b",
  "",
  null,
];

describe.each(databasesToOpen())("CSV cells written by $name", ({ open }) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(() => database?.close());

  test("are the cells csvCell writes, for every rule's edge", async () => {
    const [row] = await database.run<{ cells: string[] }>(
      "csv-cells",
      `SELECT array_agg(${csvCellSql("cell")} ORDER BY n) AS cells FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS t(cell, n)`,
      [JSON.stringify(EDGE_CELLS)],
    );
    expect(row?.cells).toEqual(EDGE_CELLS.map(csvCell));
  });
});
