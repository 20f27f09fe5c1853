import { wallClock } from "~/lib/operator-time.ts";

/**
 * Which backups to keep: the newest of each of the last 7 days and 4 weeks that have one, and of each of the
 * current month and the 2 before it. A backup holds leads, which are kept at most a year and deleted after: kept 3
 * months, a backup holds a deleted lead for 3 months at most, as the privacy policy says. Nothing from before
 * those months is kept, whichever rule would keep it (backups that stopped for a while, say).
 */

const DAYS = 7;
const WEEKS = 4;
/** The privacy policy says backups are kept up to 3 months (app/content/legal/privacy.ts). */
const MONTHS = 3;

function periods(instant: Date, timeZone: string) {
  const { year, month, day } = wallClock(instant, timeZone);
  const dayNumber = Date.UTC(year, month - 1, day) / 86_400_000;
  // 1970-01-05 was a Monday: weeks counted from it start on Mondays.
  const week = Math.floor((dayNumber - 4) / 7);
  return { day: dayNumber, week, month: year * 12 + month };
}

export function backupsToKeep<T extends { createdAt: Date }>(all: T[], timeZone: string, now: Date): Set<T> {
  const oldestMonth = periods(now, timeZone).month - (MONTHS - 1);
  const newestFirst = [...all]
    .filter((backup) => periods(backup.createdAt, timeZone).month >= oldestMonth)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
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
