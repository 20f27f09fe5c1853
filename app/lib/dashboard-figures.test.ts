import { describe, expect, test } from "vitest";
import { changeAgainst, firstOpenDayStart, summedByKey } from "./dashboard-figures.ts";

describe("the days that are over", () => {
  test("a UTC day is over an hour after its end: until 01:00 yesterday is still open", () => {
    const at = (time: string) => new Date(firstOpenDayStart(Date.parse(time))).toISOString();
    expect(at("2026-11-28T00:30:00Z")).toBe("2026-11-27T00:00:00.000Z");
    expect(at("2026-11-28T00:59:59.999Z")).toBe("2026-11-27T00:00:00.000Z");
    expect(at("2026-11-28T01:00:00Z")).toBe("2026-11-28T00:00:00.000Z");
    expect(at("2026-11-28T23:59:59Z")).toBe("2026-11-28T00:00:00.000Z");
  });

  test("two readings' rows of the same key are summed figure by figure, and neither reading is changed", () => {
    const over = [
      { day: "2026-11-26", path: null, views: 5, calls: 1 },
      { day: null, path: "/", views: 7, calls: 2 },
    ];
    const open = [
      { day: "2026-11-28", path: null, views: 3, calls: 0 },
      { day: null, path: "/", views: 4, calls: 1 },
    ];
    const summed = summedByKey([...over, ...open], (row) => [row.day, row.path], ["views", "calls"]);
    expect(summed).toEqual([
      { day: "2026-11-26", path: null, views: 5, calls: 1 },
      { day: null, path: "/", views: 11, calls: 3 },
      { day: "2026-11-28", path: null, views: 3, calls: 0 },
    ]);
    expect(over[1]).toEqual({ day: null, path: "/", views: 7, calls: 2 });
  });
});

describe("changeAgainst", () => {
  test("says the change in whole percent, against the size of the figure before, and new from nothing", () => {
    expect(changeAgainst(12, 10)).toBe("+20%");
    expect(changeAgainst(-5, -10)).toBe("+50%");
    expect(changeAgainst(9, 10)).toBe("-10%");
    expect(changeAgainst(3, 0)).toBe("new");
    expect(changeAgainst(4, 4)).toBe("no change");
  });
});
