import { describe, expect, test } from "vitest";
import { automaticTextSendsAt, inQuietHours } from "./quiet-hours.server.ts";

const ZONE = "America/New_York";

describe("quiet hours for automatic texts", () => {
  test("in the day a text goes at once", () => {
    const noon = new Date("2026-11-25T17:00:00Z"); // 12:00 in New York
    expect(inQuietHours(noon, ZONE)).toBe(false);
    expect(automaticTextSendsAt(noon, ZONE)).toEqual(noon);
  });

  test("at 20:59 it still goes; at 21:00 it waits for 08:00 the next morning", () => {
    expect(inQuietHours(new Date("2026-11-26T01:59:00Z"), ZONE)).toBe(false);
    expect(automaticTextSendsAt(new Date("2026-11-26T02:00:00Z"), ZONE)).toEqual(new Date("2026-11-26T13:00:00Z"));
  });

  test("after midnight it waits for 08:00 the same day, at the zone's own offset after a clock change", () => {
    // 03:00 on the Sunday the clocks went back (EDT to EST): 08:00 that morning is 13:00 UTC.
    expect(automaticTextSendsAt(new Date("2026-11-01T08:00:00Z"), ZONE)).toEqual(new Date("2026-11-01T13:00:00Z"));
    // 07:59 in July (EDT): 08:00 is one minute later.
    expect(automaticTextSendsAt(new Date("2026-07-10T11:59:00Z"), ZONE)).toEqual(new Date("2026-07-10T12:00:00Z"));
  });

  test("across a month's end the next morning is the 1st", () => {
    expect(automaticTextSendsAt(new Date("2026-12-01T03:30:00Z"), ZONE)).toEqual(new Date("2026-12-01T13:00:00Z"));
    expect(automaticTextSendsAt(new Date("2026-12-01T04:30:00Z"), "Europe/Berlin")).toEqual(
      new Date("2026-12-01T07:00:00Z"),
    );
  });
});
