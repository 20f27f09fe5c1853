import { describe, expect, test } from "vitest";
import { textableNumber } from "./referral-messages.server.ts";

describe("a partner's number for text messages", () => {
  test("US numbers as people write them become E.164; others with a + are kept; anything else gets email only", () => {
    expect(textableNumber("(555) 010-7788")).toBe("+15550107788");
    expect(textableNumber("(212) 555-0188")).toBe("+12125550188");
    expect(textableNumber("1-212-555-0188")).toBe("+12125550188");
    expect(textableNumber("+31 20 123 4567")).toBe("+31201234567");
    expect(textableNumber("555-0188")).toBeNull();
  });
});
