import { describe, expect, it } from "vitest";
import { formatLike } from "./tracking-number.ts";

describe("formatLike", () => {
  it("writes a tracking number in the shape of the site's own, so it takes the same room", () => {
    expect(formatLike("1-800-555-0199", "+18005550123")).toBe("1-800-555-0123");
    expect(formatLike("(800) 555-0199", "+12125550123")).toBe("1 (212) 555-0123");
    expect(formatLike("1-800-555-0199", "+4420")).toBe("4420");
  });
});
