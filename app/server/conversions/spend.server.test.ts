import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { parseSpendCsv, saveSpend, spendInRange, validateSpend } from "./spend.server.ts";

describe("spend rows", () => {
  test("the form: a month, a source, an optional campaign and an amount", () => {
    expect(validateSpend({ month: "2026-11", source: " google ", campaign: "", amount: "1,250.50" })).toEqual({
      ok: true,
      entry: { month: "2026-11-01", source: "google", campaign: "", amountCents: 125_050 },
    });
    expect(validateSpend({ month: "11/2026", source: "", campaign: "x".repeat(101), amount: "$5" })).toEqual({
      ok: false,
      errors: {
        month: "Enter the month as yyyy-mm, like 2026-11.",
        source: expect.stringContaining("Enter the source"),
        campaign: expect.stringContaining("at most 100 characters"),
        amount: expect.stringContaining("Enter the amount"),
      },
    });
  });

  test("a CSV of the same columns, in any order, quoted cells and a byte order mark allowed", () => {
    const csv =
      '\uFEFFSource,Month,Amount,Campaign\r\ngoogle,2026-10,"1,200.00","=spring, drains"\r\nbing,2026-10,80,\r\n';
    expect(parseSpendCsv(csv)).toEqual({
      ok: true,
      entries: [
        { month: "2026-10-01", source: "google", campaign: "=spring, drains", amountCents: 120_000 },
        { month: "2026-10-01", source: "bing", campaign: "", amountCents: 8_000 },
      ],
    });
  });

  test("every bad row is named by its line and field, and nothing is taken", () => {
    const csv =
      "Month,Source,Campaign,Amount\n2026-10,google,a,100\n2026-13,google,b,100\n2026-10,,c,-4\n2026-10,google,a,5\n";
    expect(parseSpendCsv(csv)).toEqual({
      ok: false,
      errors: [
        "Line 3, Month: Enter the month as yyyy-mm, like 2026-11.",
        expect.stringMatching(/^Line 4, Source: Enter the source/),
        expect.stringMatching(/^Line 4, Amount: Enter the amount/),
        "Line 5: the same month, source and campaign as an earlier line.",
      ],
    });
    expect(parseSpendCsv("Date,Cost\n2026-10,5\n")).toEqual({
      ok: false,
      errors: ["The first row must name the columns: Month, Source, Campaign, Amount."],
    });
    expect(parseSpendCsv('Month,Source,Campaign,Amount\n2026-10,"google,5\n').ok).toBe(false);
    expect(parseSpendCsv("Month,Source,Campaign,Amount\n")).toEqual({
      ok: false,
      errors: ["The file has no rows of spend."],
    });
  });
});

describe("spend over a range of days", () => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openDatabase({ pgliteDataDir: "memory://" });
    await saveSpend(database.db, [
      { month: "2026-10-01", source: "google", campaign: "spring", amountCents: 31_000 },
      { month: "2026-11-01", source: "google", campaign: "spring", amountCents: 30_000 },
      { month: "2026-09-01", source: "google", campaign: "spring", amountCents: 99_999 },
    ]);
  });
  afterAll(() => database?.close());

  test("holds each month's spend spread evenly over its days", async () => {
    // 10 days of October (31 days: 10,000) and 5 of November (30 days: 5,000).
    expect(await spendInRange(database.db, "2026-10-22", "2026-11-05")).toEqual([
      { source: "google", campaign: "spring", costCents: 15_000 },
    ]);
  });

  test("saving a month, source and campaign again replaces its amount", async () => {
    await saveSpend(database.db, [{ month: "2026-11-01", source: "google", campaign: "spring", amountCents: 60_000 }]);
    expect(await spendInRange(database.db, "2026-11-01", "2026-11-30")).toEqual([
      { source: "google", campaign: "spring", costCents: 60_000 },
    ]);
  });
});
