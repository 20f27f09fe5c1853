import { describe, expect, test } from "vitest";
import { centsToDecimal, formatMoney, parseAmount } from "./money.ts";

describe("amounts", () => {
  test("reads whole amounts, cents and thousands separators", () => {
    expect(parseAmount("1250")).toBe(125_000);
    expect(parseAmount(" 1,250.5 ")).toBe(125_050);
    expect(parseAmount("0.07")).toBe(7);
    expect(parseAmount("10,000,000")).toBe(1_000_000_000);
  });

  test("refuses signs, symbols, a third decimal, misplaced commas and amounts over 10 million", () => {
    for (const text of ["", "-5", "$5", "5.123", "1,25", "1e3", "10,000,000.01", "abc"]) {
      expect(parseAmount(text), text).toBeNull();
    }
  });

  test("writes cents as a plain decimal and for reading", () => {
    expect(centsToDecimal(125_005)).toBe("1250.05");
    expect(centsToDecimal(0)).toBe("0.00");
    expect(formatMoney(125_005, "USD")).toBe("$1,250.05");
  });
});
