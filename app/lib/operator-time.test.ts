import { describe, expect, test } from "vitest";
import { deadline, describeDeadline, formatDate, formatTime } from "./operator-time.ts";

describe("operator time", () => {
  test("shows a time in the operator's zone with its abbreviation", () => {
    const instant = new Date("2026-11-22T03:30:00Z");
    expect(formatTime(instant, "America/New_York")).toBe("Nov 21, 2026, 10:30 PM EST");
    expect(formatTime(instant, "America/Los_Angeles")).toBe("Nov 21, 2026, 7:30 PM PST");
    expect(formatTime(new Date("2026-07-01T16:00:00Z"), "America/New_York")).toBe("Jul 1, 2026, 12:00 PM EDT");
    expect(formatDate(instant, "Europe/Amsterdam")).toBe("Nov 22, 2026");
  });

  test("counts days left in calendar days of the operator's zone, not in UTC", () => {
    // 02:00 UTC on the 22nd is still the 21st in New York; the request is due at 04:00 UTC on the 23rd (the 22nd there).
    const now = new Date("2026-11-22T02:00:00Z");
    const dueAt = new Date("2026-11-23T04:00:00Z");
    expect(deadline(dueAt, now, "America/New_York")).toEqual({ daysLeft: 1, overdue: false });
    expect(deadline(dueAt, now, "Europe/Amsterdam")).toEqual({ daysLeft: 1, overdue: false });
    expect(deadline(dueAt, now, "Asia/Tokyo")).toEqual({ daysLeft: 1, overdue: false });
    // 23:30 in New York on the 21st: due at 00:30 on the 22nd there is tomorrow, though only an hour away.
    expect(
      deadline(new Date("2026-11-22T05:30:00Z"), new Date("2026-11-22T04:30:00Z"), "America/New_York").daysLeft,
    ).toBe(1);
    expect(deadline(new Date("2026-11-22T05:30:00Z"), new Date("2026-11-22T04:30:00Z"), "UTC").daysLeft).toBe(0);
  });

  test("marks a request overdue once its due moment has passed, and says so in words", () => {
    const dueAt = new Date("2026-11-20T15:00:00Z");
    const twoDaysLater = deadline(dueAt, new Date("2026-11-22T15:00:00Z"), "America/New_York");
    expect(twoDaysLater).toEqual({ daysLeft: -2, overdue: true });
    expect(describeDeadline(twoDaysLater)).toBe("Overdue by 2 days");
    expect(describeDeadline(deadline(dueAt, new Date("2026-11-20T16:00:00Z"), "America/New_York"))).toBe(
      "Overdue (due today)",
    );
    expect(describeDeadline(deadline(dueAt, new Date("2026-11-20T12:00:00Z"), "America/New_York"))).toBe("Due today");
    expect(describeDeadline(deadline(dueAt, new Date("2026-11-19T12:00:00Z"), "America/New_York"))).toBe("1 day left");
    expect(describeDeadline(deadline(dueAt, new Date("2026-10-21T12:00:00Z"), "America/New_York"))).toBe(
      "30 days left",
    );
  });
});
