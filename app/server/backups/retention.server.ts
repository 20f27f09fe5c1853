import { wallClock } from "~/lib/operator-time.ts";

/** Which backups to keep: the newest of each of the last 7 days, 4 weeks (Monday to Sunday) and 12 months that have one. */

const DAYS = 7;
const WEEKS = 4;
const MONTHS = 12;

function periods(instant: Date, timeZone: string) {
  const { year, month, day } = wallClock(instant, timeZone);
  const dayNumber = Date.UTC(year, month - 1, day) / 86_400_000;
  // 1970-01-05 was a Monday: weeks counted from it start on Mondays.
  const week = Math.floor((dayNumber - 4) / 7);
  return { day: dayNumber, week, month: year * 12 + month };
}

export function backupsToKeep<T extends { createdAt: Date }>(all: T[], timeZone: string): Set<T> {
  const newestFirst = [...all].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const keep = new Set<T>();
  for (const [unit, count] of [
    ["day", DAYS],
    ["week", WEEKS],
    ["month", MONTHS],
  ] as const) {
    const seen = new Set<number>();
    for (const backup of newestFirst) {
      const period = periods(backup.createdAt, timeZone)[unit];
      if (seen.has(period)) continue;
      if (seen.size === count) break;
      seen.add(period);
      keep.add(backup);
    }
  }
  return keep;
}
