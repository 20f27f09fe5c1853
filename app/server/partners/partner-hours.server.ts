import { wallClock } from "../../lib/operator-time.ts";

/**
 * A partner's "Hours": when they take calls and automatic referrals, read on the operator's wall clock
 * (OPERATOR_TIME_ZONE). `24/7`, or windows separated by commas, each a day or a range of days and a time range:
 * `Mon-Fri 07:00-19:00, Sat 08:00-12:00`. A window whose end is before its start runs overnight into the next
 * day (`Mon-Sun 18:00-06:00`: from 18:00 each evening to 06:00 the next morning). The start is included, the end
 * is not; `24:00` is the end of the day.
 *
 * Being inside is a matter of what the wall clock reads, so across daylight-saving changes a window follows the
 * clock: on the night the clocks go forward a window over the skipped hour is an hour shorter (and one inside it
 * never opens), and on the night they go back a window over the repeated hour is open through both of its passes.
 */

export const MAX_HOURS_LENGTH = 200;

const DAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

interface Window {
  /** The days (0 Sunday … 6 Saturday) the window opens on. */
  days: ReadonlySet<number>;
  /** Minutes after midnight; an end before the start closes the next day. */
  start: number;
  end: number;
}

/** Parsed hours: open always, or during any of the windows. */
export type PartnerHours = { always: true } | { always: false; windows: Window[] };

export type ParsedHours = { ok: true; hours: PartnerHours; text: string } | { ok: false; error: string };

const EXAMPLE = "Write 24/7, or days and times like Mon-Fri 07:00-19:00, Sat 08:00-12:00.";

function dayNumber(name: string): number {
  const day = DAY_NAMES.indexOf(name.slice(0, 3).toLowerCase() as (typeof DAY_NAMES)[number]);
  const full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][day];
  // Three letters ("Mon") or the whole name ("Monday").
  return day >= 0 && (name.length === 3 || name.toLowerCase() === full) ? day : -1;
}

function minutes(time: string, allowEndOfDay: boolean): number {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time);
  if (!match) return -1;
  const [hour, minute] = [Number(match[1]), Number(match[2])];
  if (hour === 24 && minute === 0 && allowEndOfDay) return 24 * 60;
  return hour < 24 && minute < 60 ? hour * 60 + minute : -1;
}

function parseWindow(text: string): Window | string {
  const match = /^([a-z]+)(?:\s*-\s*([a-z]+))?\s+(\S+)\s*-\s*(\S+)$/i.exec(text);
  if (!match) return `"${text}" is not a day and a time range. ${EXAMPLE}`;
  const [, from, to, startText, endText] = match as unknown as [string, string, string | undefined, string, string];
  const first = dayNumber(from);
  const last = to === undefined ? first : dayNumber(to);
  if (first < 0 || last < 0)
    return `"${first < 0 ? from : to}" is not a day: write Mon, Tue, Wed, Thu, Fri, Sat or Sun.`;
  const start = minutes(startText, false);
  const end = minutes(endText, true);
  if (start < 0 || end < 0)
    return `"${start < 0 ? startText : endText}" is not a time: write 24-hour times like 07:00.`;
  if (start === end) return `"${text}" opens and closes at the same time: for all day write 00:00-24:00.`;
  const days = new Set<number>();
  // A range of days may run over the weekend: Fri-Mon.
  for (let day = first; ; day = (day + 1) % 7) {
    days.add(day);
    if (day === last) break;
  }
  return { days, start, end };
}

/** The operator's text as hours, or a sentence saying what is wrong with it. */
export function parseHours(input: string): ParsedHours {
  const text = input.trim().replace(/\s+/g, " ");
  if (text === "") return { ok: false, error: `Enter the hours. ${EXAMPLE}` };
  if (text.length > MAX_HOURS_LENGTH)
    return { ok: false, error: `The hours can be at most ${MAX_HOURS_LENGTH} characters.` };
  if (text === "24/7") return { ok: true, hours: { always: true }, text };
  const windows: Window[] = [];
  for (const part of text.split(",")) {
    const window = parseWindow(part.trim());
    if (typeof window === "string") return { ok: false, error: window };
    windows.push(window);
  }
  return { ok: true, hours: { always: false, windows }, text };
}

/** Whether the partner's hours are open at an instant, on the wall clock of `timeZone`. */
export function isOpen(hours: PartnerHours, instant: Date, timeZone: string): boolean {
  if (hours.always) return true;
  const clock = wallClock(instant, timeZone);
  const day = new Date(Date.UTC(clock.year, clock.month - 1, clock.day)).getUTCDay();
  const yesterday = (day + 6) % 7;
  const minute = clock.hour * 60 + clock.minute;
  return hours.windows.some((window) =>
    window.start < window.end
      ? window.days.has(day) && minute >= window.start && minute < window.end
      : (window.days.has(day) && minute >= window.start) || (window.days.has(yesterday) && minute < window.end),
  );
}
