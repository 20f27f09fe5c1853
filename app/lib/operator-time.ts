/**
 * Times and dates as the operator reads them: in their time zone (OPERATOR_TIME_ZONE), with the zone's
 * abbreviation spelled out, formatted on the server so the page never depends on the browser's zone.
 */

const DAY_MS = 86_400_000;

/**
 * One format per zone and style, made once: making an Intl.DateTimeFormat costs far more than formatting with it, and
 * a page formats many times (the inbox's 50 leads took about 6 ms a view making a new one for each time).
 */
function formatsPerZone(options: Intl.DateTimeFormatOptions): (timeZone: string) => Intl.DateTimeFormat {
  const formats = new Map<string, Intl.DateTimeFormat>();
  return (timeZone) => {
    let format = formats.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
      formats.set(timeZone, format);
    }
    return format;
  };
}

const timeFormat = formatsPerZone({
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});
const dateFormat = formatsPerZone({ year: "numeric", month: "short", day: "numeric" });
const wallClockFormat = formatsPerZone({
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
  hourCycle: "h23",
});

export function formatTime(instant: Date, timeZone: string): string {
  return timeFormat(timeZone).format(instant);
}

export function formatDate(instant: Date, timeZone: string): string {
  return dateFormat(timeZone).format(instant);
}

/** What a zone's wall clock reads at an instant, in numbers (24-hour). */
export function wallClock(instant: Date, timeZone: string) {
  const format = wallClockFormat(timeZone);
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** The calendar date (yyyy-MM-dd) of an instant in a zone: the operator's day it falls on. */
export function localDate(instant: Date, timeZone: string): string {
  const { year, month, day } = wallClock(instant, timeZone);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** A calendar date (yyyy-MM-dd) so many days later (earlier when negative). */
export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The calendar day of an instant in a zone, as days since 1970-01-01 (so two days subtract exactly). */
function calendarDay(instant: Date, timeZone: string): number {
  const { year, month, day } = wallClock(instant, timeZone);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

interface Deadline {
  /** Calendar days from today to the due date, in the operator's zone: 0 on the due day, negative after it. */
  daysLeft: number;
  /** The due moment has passed. */
  overdue: boolean;
}

export function deadline(dueAt: Date, now: Date, timeZone: string): Deadline {
  return {
    daysLeft: calendarDay(dueAt, timeZone) - calendarDay(now, timeZone),
    overdue: dueAt.getTime() <= now.getTime(),
  };
}

/** "12 days left", "Due today", "Overdue by 3 days": the words carry the state, not only a colour. */
export function describeDeadline({ daysLeft, overdue }: Deadline): string {
  if (overdue) {
    const late = Math.max(0, -daysLeft);
    return late === 0 ? "Overdue (due today)" : `Overdue by ${late} day${late === 1 ? "" : "s"}`;
  }
  if (daysLeft === 0) return "Due today";
  return `${daysLeft} day${daysLeft === 1 ? "" : "s"} left`;
}

/** The instant a zone's wall clock reads `date` at `hour`:00 (the later one if the hour is skipped). */
export function zonedInstant(date: string, hour: number, timeZone: string): Date {
  const wall = Date.parse(`${date}T${String(hour).padStart(2, "0")}:00:00Z`);
  const offsetAt = (instant: number) => {
    const clock = wallClock(new Date(instant), timeZone);
    return Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - instant;
  };
  const guess = wall - offsetAt(wall);
  return new Date(wall - offsetAt(guess));
}
