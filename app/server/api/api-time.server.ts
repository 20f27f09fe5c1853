/**
 * A time as the read API takes it: ISO 8601 with a four-digit year (0001–9999, what both JavaScript and
 * PostgreSQL hold), every field within its range (no 19th month, no 30 February, no 99th minute) and, when it has
 * a time of day, a zone ("Z" or an offset). A date alone is midnight UTC. Up to six decimals of a second: the
 * database's own times, as it writes them ("2026-11-25 03:41:13.123456+00"), are read the same way.
 */

const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}(?::?\d{2})?))?$/i;

export interface ApiTime {
  /** The instant, to the millisecond (further decimals dropped). */
  at: Date;
  /** The time as given, for the database to read to the microsecond. */
  text: string;
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

export function parseApiTime(text: string): ApiTime | null {
  const match = ISO_TIME.exec(text);
  if (!match) return null;
  const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", zone = "Z"] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== "Z") {
    const [offsetHours, offsetRest = "00"] = [zone.slice(1, 3), zone.slice(3).replace(":", "")];
    if (Number(offsetHours) > 15 || Number(offsetRest) > 59) return null;
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetRest));
  }
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi, s, Number(fraction.padEnd(3, "0").slice(0, 3)));
  const at = new Date(utc.getTime() - offsetMinutes * 60_000);
  // An offset can carry 0001-01-01 or 9999-12-31 past the years both sides hold.
  if (at.getUTCFullYear() < 1 || at.getUTCFullYear() > 9999) return null;
  return { at, text };
}
