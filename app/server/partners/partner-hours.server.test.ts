import { describe, expect, test } from "vitest";
import { isOpen, parseHours, type PartnerHours } from "./partner-hours.server.ts";

const ZONE = "America/New_York";

function hours(text: string): PartnerHours {
  const parsed = parseHours(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.hours;
}

/** Whether `text` is open at an instant given in UTC. */
const openAt = (text: string, utc: string) => isOpen(hours(text), new Date(utc), ZONE);

/** The minutes of a UTC span during which `text` is open. */
function openMinutes(text: string, fromUtc: string, toUtc: string): number {
  const parsed = hours(text);
  let open = 0;
  for (let at = Date.parse(fromUtc); at < Date.parse(toUtc); at += 60_000) {
    if (isOpen(parsed, new Date(at), ZONE)) open += 1;
  }
  return open;
}

describe("a partner's hours", () => {
  test("24/7 is always open", () => {
    expect(openAt("24/7", "2026-12-06T03:00:00Z")).toBe(true);
    expect(openAt(" 24/7 ", "2026-03-08T07:00:00Z")).toBe(true);
  });

  test("weekday and Saturday windows open at their start and close at their end, on the operator's clock", () => {
    const text = "Mon-Fri 07:00-19:00, Sat 08:00-12:00";
    // Friday 4 December 2026, EST (UTC-5).
    expect(openAt(text, "2026-12-04T11:59:00Z")).toBe(false); // 06:59
    expect(openAt(text, "2026-12-04T12:00:00Z")).toBe(true); // 07:00
    expect(openAt(text, "2026-12-04T23:59:00Z")).toBe(true); // 18:59
    expect(openAt(text, "2026-12-05T00:00:00Z")).toBe(false); // 19:00
    // Saturday 08:00 and 12:00, Sunday 10:00.
    expect(openAt(text, "2026-12-05T13:00:00Z")).toBe(true);
    expect(openAt(text, "2026-12-05T17:00:00Z")).toBe(false);
    expect(openAt(text, "2026-12-06T15:00:00Z")).toBe(false);
  });

  test("a window ending before it starts runs overnight into the next day", () => {
    const nights = "Mon-Sun 18:00-06:00";
    expect(openAt(nights, "2026-12-08T10:59:00Z")).toBe(true); // Tuesday 05:59
    expect(openAt(nights, "2026-12-08T11:00:00Z")).toBe(false); // Tuesday 06:00
    expect(openAt(nights, "2026-12-08T22:59:00Z")).toBe(false); // Tuesday 17:59
    expect(openAt(nights, "2026-12-08T23:00:00Z")).toBe(true); // Tuesday 18:00
    const friday = "Fri 22:00-02:00";
    expect(openAt(friday, "2026-12-05T06:00:00Z")).toBe(true); // Saturday 01:00, the Friday night's window
    expect(openAt(friday, "2026-12-06T06:00:00Z")).toBe(false); // Sunday 01:00: no Saturday window
    expect(openAt(friday, "2026-12-04T06:00:00Z")).toBe(false); // Friday 01:00: Thursday has none
  });

  test("a range of days may run over the weekend, and days may be written in full", () => {
    expect(openAt("Fri-Mon 09:00-17:00", "2026-12-06T15:00:00Z")).toBe(true); // Sunday 10:00
    expect(openAt("Fri-Mon 09:00-17:00", "2026-12-08T15:00:00Z")).toBe(false); // Tuesday 10:00
    expect(openAt("saturday-Sunday 00:00-24:00", "2026-12-06T04:59:00Z")).toBe(true); // Saturday 23:59
  });

  describe("across daylight-saving changes in America/New_York", () => {
    test("spring forward: a window over the skipped hour is an hour shorter, and one inside it never opens", () => {
      // Sunday 8 March 2026: 02:00 EST becomes 03:00 EDT at 07:00 UTC.
      expect(openMinutes("Sun 01:00-03:00", "2026-03-08T05:00:00Z", "2026-03-08T09:00:00Z")).toBe(60);
      expect(openAt("Sun 01:00-03:00", "2026-03-08T06:59:00Z")).toBe(true); // 01:59 EST
      expect(openAt("Sun 01:00-03:00", "2026-03-08T07:00:00Z")).toBe(false); // 03:00 EDT
      expect(openMinutes("Sun 02:00-02:30", "2026-03-08T05:00:00Z", "2026-03-08T09:00:00Z")).toBe(0);
      // An overnight window over the change closes at 06:00 EDT, 10:00 UTC, not 11:00.
      expect(openAt("Sat 22:00-06:00", "2026-03-08T09:59:00Z")).toBe(true);
      expect(openAt("Sat 22:00-06:00", "2026-03-08T10:00:00Z")).toBe(false);
      expect(openMinutes("Sat 22:00-06:00", "2026-03-08T00:00:00Z", "2026-03-08T12:00:00Z")).toBe(7 * 60);
    });

    test("fall back: a window over the repeated hour is open through both of its passes", () => {
      // Sunday 1 November 2026: 02:00 EDT becomes 01:00 EST at 06:00 UTC.
      expect(openAt("Sun 01:00-02:00", "2026-11-01T04:59:00Z")).toBe(false); // 00:59 EDT
      expect(openAt("Sun 01:00-02:00", "2026-11-01T05:30:00Z")).toBe(true); // 01:30 EDT
      expect(openAt("Sun 01:00-02:00", "2026-11-01T06:30:00Z")).toBe(true); // 01:30 EST
      expect(openAt("Sun 01:00-02:00", "2026-11-01T07:00:00Z")).toBe(false); // 02:00 EST
      expect(openMinutes("Sun 01:00-02:00", "2026-11-01T04:00:00Z", "2026-11-01T09:00:00Z")).toBe(120);
      expect(openMinutes("Sat 22:00-06:00", "2026-10-31T23:00:00Z", "2026-11-01T13:00:00Z")).toBe(9 * 60);
    });

    test("24/7 and 00:00-24:00 stay open through both changes", () => {
      for (const text of ["24/7", "Mon-Sun 00:00-24:00"]) {
        expect(openMinutes(text, "2026-03-08T04:00:00Z", "2026-03-08T09:00:00Z")).toBe(300);
        expect(openMinutes(text, "2026-11-01T04:00:00Z", "2026-11-01T09:00:00Z")).toBe(300);
      }
    });
  });

  test("keeps the operator's text with its spaces tidied", () => {
    expect(parseHours("  Mon-Fri   07:00-19:00,Sat 08:00 - 12:00 ")).toMatchObject({
      ok: true,
      text: "Mon-Fri 07:00-19:00,Sat 08:00 - 12:00",
    });
  });

  test.each([
    ["", "Enter the hours. Write 24/7, or days and times like Mon-Fri 07:00-19:00, Sat 08:00-12:00."],
    [
      "always",
      '"always" is not a day and a time range. Write 24/7, or days and times like Mon-Fri 07:00-19:00, Sat 08:00-12:00.',
    ],
    ["Mon-Fri 7-19", '"7" is not a time: write 24-hour times like 07:00.'],
    ["Mon-Fri 7am-7pm", '"7am" is not a time: write 24-hour times like 07:00.'],
    ["Funday 08:00-12:00", '"Funday" is not a day: write Mon, Tue, Wed, Thu, Fri, Sat or Sun.'],
    ["Mon-Fry 08:00-12:00", '"Fry" is not a day: write Mon, Tue, Wed, Thu, Fri, Sat or Sun.'],
    ["Mon 08:00-25:00", '"25:00" is not a time: write 24-hour times like 07:00.'],
    ["Mon 24:00-08:00", '"24:00" is not a time: write 24-hour times like 07:00.'],
    ["Mon 08:60-09:00", '"08:60" is not a time: write 24-hour times like 07:00.'],
    ["Mon 08:00-08:00", '"Mon 08:00-08:00" opens and closes at the same time: for all day write 00:00-24:00.'],
    [
      "Mon 08:00-12:00,",
      '"" is not a day and a time range. Write 24/7, or days and times like Mon-Fri 07:00-19:00, Sat 08:00-12:00.',
    ],
    ["Mon 08:00-12:00 ".repeat(20), "The hours can be at most 200 characters."],
  ])("refuses %j, saying why", (text, error) => {
    expect(parseHours(text)).toEqual({ ok: false, error });
  });
});
