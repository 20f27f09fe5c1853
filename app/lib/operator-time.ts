/**
 * Times and dates as the operator reads them: in their time zone (OPERATOR_TIME_ZONE), with the zone's
 * abbreviation spelled out, formatted on the server so the page never depends on the browser's zone.
 */

const DAY_MS = 86_400_000;

export function formatTime(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(instant);
}

export function formatDate(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "short", day: "numeric" }).format(
    instant,
  );
}

/** The calendar day of an instant in a zone, as days since 1970-01-01 (so two days subtract exactly). */
function calendarDay(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" })
    .formatToParts(instant)
    .reduce<Record<string, number>>((found, part) => ({ ...found, [part.type]: Number(part.value) }), {});
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!) / DAY_MS;
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
