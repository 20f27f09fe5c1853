import { describe, expect, test } from "vitest";
import { timeAgo } from "./time-ago.ts";

describe("timeAgo", () => {
  const now = new Date("2026-11-23T18:00:00Z");
  const before = (ms: number) => new Date(now.getTime() - ms);

  test("says minutes, hours and days, rounding down", () => {
    expect(timeAgo(before(30_000), now)).toBe("just now");
    expect(timeAgo(before(12 * 60_000 + 59_000), now)).toBe("12 min ago");
    expect(timeAgo(before(3 * 3_600_000 + 1), now)).toBe("3 h ago");
    expect(timeAgo(before(86_400_000), now)).toBe("1 day ago");
    expect(timeAgo(before(9 * 86_400_000), now)).toBe("9 days ago");
  });
});
