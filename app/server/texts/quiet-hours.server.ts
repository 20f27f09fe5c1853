import { wallClock, zonedInstant } from "~/lib/operator-time.ts";

/** Automatic texts go out between 08:00 and 21:00 in the operator's zone; outside it they wait for 08:00. */
const DAY_STARTS_AT_HOUR = 8;
const DAY_ENDS_AT_HOUR = 21;

/** Whether `at` falls in quiet hours (21:00 to 08:00 in `timeZone`). */
export function inQuietHours(at: Date, timeZone: string): boolean {
  const { hour } = wallClock(at, timeZone);
  return hour >= DAY_ENDS_AT_HOUR || hour < DAY_STARTS_AT_HOUR;
}

/** When an automatic text queued at `at` may go: at once in the day, else at the next 08:00 in `timeZone`. */
export function automaticTextSendsAt(at: Date, timeZone: string): Date {
  if (!inQuietHours(at, timeZone)) return at;
  const { year, month, day, hour } = wallClock(at, timeZone);
  const morning = new Date(Date.UTC(year, month - 1, hour >= DAY_ENDS_AT_HOUR ? day + 1 : day));
  return zonedInstant(morning.toISOString().slice(0, 10), DAY_STARTS_AT_HOUR, timeZone);
}

/** The quiet hours as the console says them. */
export const QUIET_HOURS_LABEL = "21:00–08:00";
