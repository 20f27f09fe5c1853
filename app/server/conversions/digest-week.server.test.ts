import { describe, expect, test } from "vitest";
import { zonedInstant } from "~/lib/operator-time.ts";
import { dueDigestWeek } from "./digest-week.server.ts";

describe("the weekly digest's calendar", () => {
  test("is due from Monday 08:00 in the operator's zone for a day, not before", () => {
    // Monday 2026-11-23, 08:00 in New York is 13:00 UTC.
    expect(dueDigestWeek(new Date("2026-11-23T12:59:59Z"), "America/New_York")).toBeNull();
    const due = dueDigestWeek(new Date("2026-11-23T13:00:00Z"), "America/New_York");
    expect(due).toEqual({
      sendDate: "2026-11-23",
      last: {
        from: "2026-11-16",
        to: "2026-11-22",
        startsAt: new Date("2026-11-16T05:00:00Z"),
        endsAt: new Date("2026-11-23T05:00:00Z"),
      },
      before: {
        from: "2026-11-09",
        to: "2026-11-15",
        startsAt: new Date("2026-11-09T05:00:00Z"),
        endsAt: new Date("2026-11-16T05:00:00Z"),
      },
    });
    expect(dueDigestWeek(new Date("2026-11-24T12:59:59Z"), "America/New_York")?.sendDate).toBe("2026-11-23");
    expect(dueDigestWeek(new Date("2026-11-24T13:00:00Z"), "America/New_York")).toBeNull();
    expect(dueDigestWeek(new Date("2026-11-28T13:00:00Z"), "America/New_York")).toBeNull();
  });

  test("follows the zone's clock change: a week with the change is 169 hours long", () => {
    // Clocks went back on Sunday 2026-11-01 in New York.
    const due = dueDigestWeek(new Date("2026-11-02T13:00:00Z"), "America/New_York")!;
    expect(due.last.endsAt.getTime() - due.last.startsAt.getTime()).toBe(169 * 3_600_000);
    expect(zonedInstant("2026-11-02", 8, "America/New_York")).toEqual(new Date("2026-11-02T13:00:00Z"));
    expect(zonedInstant("2026-10-26", 8, "America/New_York")).toEqual(new Date("2026-10-26T12:00:00Z"));
    expect(zonedInstant("2026-11-23", 8, "Asia/Tokyo")).toEqual(new Date("2026-11-22T23:00:00Z"));
  });
});
