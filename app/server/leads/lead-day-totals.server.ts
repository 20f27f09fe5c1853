import { sql } from "drizzle-orm";
import { dashboardRanges, firstOpenDayStart, summedByKey } from "~/lib/dashboard-figures.ts";
import { addDays, localDate, zonedInstant } from "~/lib/operator-time.ts";
import { executeRows, type Database } from "../db/index.server.ts";
import { contactRequests, leadChanges, leadDayTotals, leadDayVersions } from "./schema.server.ts";

/**
 * The leads' figures over a period, per day of the operator's calendar (OPERATOR_TIME_ZONE, midnight to midnight on
 * its clock), from totals stored per day once the day is over, and from the leads
 * themselves for the rest of the period: today, a day not yet summed, a day changed since, a part of a day. The
 * totals of a day are read only at the day's current version (lead_day_versions, raised by the database's triggers
 * whenever a change reaches the day's figures), in the same statement as the leads, so the figures are always those
 * of the leads as stored.
 */

const c = contactRequests;
const h = leadChanges;
const t = leadDayTotals;
const v = leadDayVersions;

/**
 * How long after its end a day is summed: a lead received before midnight is stored by then (statements end
 * within seconds), and one stored later than the day it was received raises that day's version.
 */
const SUMMED_AFTER = sql`interval '1 hour'`;

/** The day of a time in a zone, as a date. */
const zoneDay = (time: unknown, timeZone: string) => sql`((${time}) AT TIME ZONE ${timeZone}::text)::date`;
/** The instant a day (a date) of a zone begins, whatever the session's time zone. */
const dayStart = (day: unknown, timeZone: string) => sql`((${day})::timestamp AT TIME ZONE ${timeZone}::text)`;
/** The instant it ends: the next one begins (23 or 25 hours later on a daylight saving change). */
const dayEnd = (day: unknown, timeZone: string) => dayStart(sql`(${day})::date + 1`, timeZone);

/** A lead's attribution as the counts name it: the campaign source, else the host the visit came from; "" for none. */
const attribution = sql`coalesce(${c.landingPath}, '') AS path, coalesce(${c.utmSource}, ${c.referrerHost}, '') AS source,
  coalesce(${c.utmMedium}, '') AS medium, coalesce(${c.utmCampaign}, '') AS campaign`;

/** Leads received in [startsAt, endsAt): one row each, as a day's totals are. */
const received = (
  startsAt: unknown,
  endsAt: unknown,
  timeZone: string,
) => sql`SELECT ${zoneDay(c.receivedAt, timeZone)} AS day, ${attribution},
  1 AS leads, (${c.status} <> 'Spam')::int AS leads_not_spam, 0 AS booked
  FROM ${c} WHERE ${c.receivedAt} >= ${startsAt} AND ${c.receivedAt} < ${endsAt}`;

/**
 * Leads not marked Spam first set to Booked in [startsAt, endsAt): one row each, on the day they were booked. Each
 * lead's first booking is looked up by its own history (its index), not by every booking before the period.
 */
const firstBooked = (startsAt: unknown, endsAt: unknown, timeZone: string) => sql`SELECT ${zoneDay(
  sql`first.booked_at`,
  timeZone,
)} AS day,
  ${attribution}, 0 AS leads, 0 AS leads_not_spam, 1 AS booked
  FROM ${c}, LATERAL (
    SELECT min(${h.changedAt}) AS booked_at FROM ${h} WHERE ${h.contactRequestId} = ${c.id} AND ${h.statusTo} = 'Booked'
  ) AS first
  WHERE ${c.id} IN (
    SELECT ${h.contactRequestId} FROM ${h}
    WHERE ${h.statusTo} = 'Booked' AND ${h.changedAt} >= ${startsAt} AND ${h.changedAt} < ${endsAt}
  )
    AND first.booked_at >= ${startsAt} AND ${c.status} <> 'Spam'`;

/** A day's totals are stored at its current version, summed in this zone. */
const summedAt = (timeZone: string) =>
  sql`${v.summedVersion} = ${v.version} AND ${v.summedTimeZone} = ${timeZone}::text`;

/**
 * Sums each day of `timeZone` that is over and lies wholly in [startsAt, endsAt) whose totals are not stored at its
 * current version in that zone: one statement a day, oldest first, so that on the embedded database other requests
 * run between them. Two requests summing the same day at once store the same totals once.
 */
async function sumDaysOver(db: Database, startsAt: Date, endsAt: Date, timeZone: string) {
  const days = await executeRows<{ day: string }>(
    db,
    sql`SELECT series.day::date::text AS day
      FROM generate_series(
        (${zoneDay(sql`${startsAt.toISOString()}::timestamptz - interval '1 microsecond'`, timeZone)} + 1)::timestamp,
        (${zoneDay(sql`${endsAt.toISOString()}::timestamptz`, timeZone)} - 1)::timestamp, interval '1 day') AS series(day)
      LEFT JOIN ${v} ON ${v.day} = series.day::date
      WHERE ${dayEnd(sql`series.day::date`, timeZone)} + ${SUMMED_AFTER} <= now()
        AND NOT coalesce(${summedAt(timeZone)}, false)
      ORDER BY series.day`,
  );
  for (const { day } of days) {
    const starts = dayStart(sql`${day}::date`, timeZone);
    const ends = dayEnd(sql`${day}::date`, timeZone);
    // Totals summed in another zone are of other hours: dropped whatever their version.
    await db.execute(sql`WITH state AS (
        SELECT ${day}::date AS day, coalesce(found.version, 0) AS version,
          coalesce(found.summed_time_zone = ${timeZone}::text, false) AS same_zone
        FROM (SELECT 1) AS one
          LEFT JOIN (SELECT ${v.version} AS version, ${v.summedTimeZone} AS summed_time_zone FROM ${v}
            WHERE ${v.day} = ${day}::date) AS found ON true
      ),
      cleared AS (
        DELETE FROM ${t} WHERE ${t.day} = ${day}::date
          AND (${t.version} <> (SELECT version FROM state) OR NOT (SELECT same_zone FROM state))
      ),
      stored AS (
        INSERT INTO ${t} (day, version, path, source, medium, campaign, leads, leads_not_spam, booked)
        SELECT state.day, state.version, path, source, medium, campaign, sum(leads), sum(leads_not_spam), sum(booked)
        FROM (${received(starts, ends, timeZone)} UNION ALL ${firstBooked(starts, ends, timeZone)}) AS figures, state
        GROUP BY state.day, state.version, path, source, medium, campaign
        ON CONFLICT DO NOTHING
      )
      INSERT INTO ${v} (day, version, summed_version, summed_time_zone)
      SELECT day, version, version, ${timeZone}::text FROM state
      ON CONFLICT (day) DO UPDATE SET summed_version = excluded.summed_version,
        summed_time_zone = excluded.summed_time_zone
        WHERE ${v}.version = excluded.summed_version`);
  }
}

/**
 * Sums the operator's days of the dashboard's longest range that are over and not summed at their current version,
 * so that no view waits for them: hourly housekeeping, and at start, after an upgrade or a restore left every day to
 * sum.
 */
export async function sumRecentDays(db: Database, timeZone: string, now = new Date()): Promise<void> {
  const tomorrow = addDays(localDate(now, timeZone), 1);
  const first = addDays(tomorrow, -Math.max(...dashboardRanges));
  await sumDaysOver(db, zonedInstant(first, 0, timeZone), zonedInstant(tomorrow, 0, timeZone), timeZone);
}

export interface LeadFigures {
  /** Which grouping the row is: 0 by day, 1 by landing page, 2 by source, medium and campaign. */
  grouping: 0 | 1 | 2;
  day: string | null;
  path: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  /** Leads received. */
  leads: number;
  /** Leads received and not marked Spam. */
  leadsNotSpam: number;
  /** Leads not marked Spam first set to Booked in the period, whenever they arrived (by the day they were booked). */
  booked: number;
}

/**
 * Reads of the figures under way, by database and period. The dashboard asks twice for the same period at the same
 * moment (its counts by page and source, and its campaigns' outcomes), and both take the one read.
 */
const readsUnderWay = new WeakMap<Database, Map<string, Promise<LeadFigures[]>>>();

/**
 * The leads' figures in [startsAt, endsAt): per day in `timeZone` (OPERATOR_TIME_ZONE), per landing page, and per
 * source, medium and campaign. A read of the same period already under way is shared: its rows are the same for
 * every caller, and must not be changed.
 */
export function leadFigures(
  db: Database,
  startsAt: Date,
  endsAt: Date,
  timeZone: string,
): Promise<readonly LeadFigures[]> {
  let reads = readsUnderWay.get(db);
  if (!reads) readsUnderWay.set(db, (reads = new Map()));
  const period = `${startsAt.toISOString()}/${endsAt.toISOString()}/${timeZone}`;
  const underWay = reads.get(period);
  if (underWay) return underWay;
  const read = figuresOfPeriod(db, startsAt, endsAt, timeZone).finally(() => reads.delete(period));
  reads.set(period, read);
  return read;
}

/**
 * The figures of a period's days that are over, per database, for as long as those days' versions stay as they were
 * when they were read: the triggers raise a day's version whenever a change reaches its figures, from any instance,
 * so a change is read again. At a busy year's size the 90 days' totals take about 100 ms to group on the embedded
 * database, today's leads a fifth of that.
 */
type DaysOverFigures = {
  startsAt: number;
  overAt: number;
  timeZone: string;
  versions: string;
  rows: readonly LeadFigures[];
};
const daysOverFigures = new WeakMap<Database, DaysOverFigures[]>();

/** The versions of the days (in `timeZone`) of [startsAt, endsAt) that have one, as one text. */
async function dayVersionsOf(db: Database, startsAt: Date, endsAt: Date, timeZone: string): Promise<string> {
  const [row] = await executeRows<{ versions: string }>(
    db,
    sql`SELECT coalesce(string_agg(${v.day}::text || '=' || ${v.version}, ',' ORDER BY ${v.day}), '') AS versions
      FROM ${v} WHERE ${v.day} >= ${zoneDay(sql`${startsAt.toISOString()}::timestamptz`, timeZone)}
        AND ${v.day} <= ${zoneDay(sql`${endsAt.toISOString()}::timestamptz - interval '1 microsecond'`, timeZone)}`,
  );
  return row!.versions;
}

async function figuresOfPeriod(db: Database, startsAt: Date, endsAt: Date, timeZone: string) {
  // The start of the operator's day in which the first UTC day still open began (the triggers raise the versions of
  // the days of a lead stored after that UTC day began), or the period's end if it is over by then: the figures kept
  // are of whole days, read from their totals, and so are those of a day over since.
  const firstOpen = new Date(firstOpenDayStart());
  const overAt = Math.min(zonedInstant(localDate(firstOpen, timeZone), 0, timeZone).getTime(), endsAt.getTime());
  if (overAt <= startsAt.getTime()) return readLeadFigures(db, startsAt, endsAt, timeZone);
  // The versions are read before the figures: a change between the two leaves figures stored under older versions,
  // read again next time; never figures older than the versions they are stored under.
  const versions = await dayVersionsOf(db, startsAt, new Date(overAt), timeZone);
  const period = (figures: DaysOverFigures) =>
    figures.overAt === overAt && figures.startsAt === startsAt.getTime() && figures.timeZone === timeZone;
  const over = daysOverFigures.get(db)?.find((figures) => period(figures) && figures.versions === versions) ?? {
    startsAt: startsAt.getTime(),
    overAt,
    timeZone,
    versions,
    rows: await readLeadFigures(db, startsAt, new Date(overAt), timeZone),
  };
  // Figures of other periods over at the same moment are kept (each is checked against its own days' versions when
  // it is asked for again); those over at an earlier moment are dropped.
  const others = (daysOverFigures.get(db) ?? []).filter((figures) => figures.overAt === overAt && !period(figures));
  daysOverFigures.set(db, [...others, over]);
  if (overAt === endsAt.getTime()) return [...over.rows];
  return summedByKey(
    [...over.rows, ...(await readLeadFigures(db, new Date(overAt), endsAt, timeZone))],
    (row) => [row.grouping, row.day, row.path, row.source, row.medium, row.campaign],
    ["leads", "leadsNotSpam", "booked"],
  );
}

async function readLeadFigures(db: Database, startsAt: Date, endsAt: Date, timeZone: string) {
  await sumDaysOver(db, startsAt, endsAt, timeZone);
  const from = sql`${startsAt.toISOString()}::timestamptz`;
  const until = sql`${endsAt.toISOString()}::timestamptz`;
  return executeRows<LeadFigures>(
    db,
    sql`WITH summed AS (
      SELECT ${v.day} AS day, ${v.version} AS version FROM ${v}
      WHERE ${summedAt(timeZone)} AND ${dayStart(v.day, timeZone)} >= ${from} AND ${dayEnd(v.day, timeZone)} <= ${until}
    ),
    -- The rest of the period, a day (or the part of one in the period) at a time.
    unsummed AS (
      SELECT greatest(${dayStart(sql`series.day`, timeZone)}, ${from}) AS starts_at,
        least(${dayEnd(sql`series.day`, timeZone)}, ${until}) AS ends_at
      FROM generate_series(${zoneDay(from, timeZone)}::timestamp,
        ${zoneDay(sql`${until} - interval '1 microsecond'`, timeZone)}::timestamp, interval '1 day') AS series(day)
      WHERE NOT EXISTS (SELECT 1 FROM summed WHERE summed.day = series.day::date)
    ),
    figures AS (
      SELECT ${t.day} AS day, ${t.path} AS path, ${t.source} AS source, ${t.medium} AS medium, ${t.campaign} AS campaign,
        ${t.leads} AS leads, ${t.leadsNotSpam} AS leads_not_spam, ${t.booked} AS booked
      FROM ${t} JOIN summed ON ${t.day} = summed.day AND ${t.version} = summed.version
      UNION ALL
      SELECT live.* FROM unsummed,
        LATERAL (${received(sql`unsummed.starts_at`, sql`unsummed.ends_at`, timeZone)}
          UNION ALL ${firstBooked(sql`unsummed.starts_at`, sql`unsummed.ends_at`, timeZone)}) AS live
    )
    SELECT CASE WHEN GROUPING(day) = 0 THEN 0 WHEN GROUPING(path) = 0 THEN 1 ELSE 2 END AS grouping,
      day::text AS day, path, source, medium, campaign, sum(leads)::int AS leads,
      sum(leads_not_spam)::int AS "leadsNotSpam", sum(booked)::int AS booked
    FROM figures
    GROUP BY GROUPING SETS ((day), (path), (source, medium, campaign))`,
  );
}
