import { addDays, localDate, zonedInstant } from "~/lib/operator-time.ts";

/**
 * The digest's calendar, in the operator's zone: it is due from Monday 08:00 for a day (an instance started later
 * that Monday still sends it; one down all day skips that week), and covers the Monday-to-Sunday week before.
 */

const DAY_MS = 86_400_000;
const SEND_HOUR = 8;
/** How long after Monday 08:00 the digest may still go out. */
const SEND_WINDOW_MS = DAY_MS;

export interface DigestWeek {
  /** The Monday the digest goes out, which names it (yyyy-MM-dd). */
  sendDate: string;
  /** Last week: Monday to Sunday (dates), and the instants it starts and ends. */
  last: { from: string; to: string; startsAt: Date; endsAt: Date };
  /** The week before it. */
  before: { from: string; to: string; startsAt: Date; endsAt: Date };
}

function week(monday: string, timeZone: string) {
  return {
    from: monday,
    to: addDays(monday, 6),
    startsAt: zonedInstant(monday, 0, timeZone),
    endsAt: zonedInstant(addDays(monday, 7), 0, timeZone),
  };
}

/** The digest due at `now`, or null between Tuesday 08:00 and the next Monday 08:00. */
export function dueDigestWeek(now: Date, timeZone: string): DigestWeek | null {
  const today = localDate(now, timeZone);
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  const monday = addDays(today, -((weekday + 6) % 7));
  const candidates = [monday, addDays(monday, -7)];
  for (const sendDate of candidates) {
    const sendAt = zonedInstant(sendDate, SEND_HOUR, timeZone).getTime();
    if (now.getTime() >= sendAt && now.getTime() < sendAt + SEND_WINDOW_MS) {
      return { sendDate, last: week(addDays(sendDate, -7), timeZone), before: week(addDays(sendDate, -14), timeZone) };
    }
  }
  return null;
}
