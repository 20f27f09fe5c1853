import { sql } from "drizzle-orm";
import { dashboardRanges, firstOpenDayStart, summedByKey } from "~/lib/dashboard-figures.ts";
import { executeRows, type Database } from "../db/index.server.ts";
import { contactRequests, leadChanges, leadDayTotals, leadDayVersions } from "./schema.server.ts";

/**
 * The leads' figures over a period, from totals stored per UTC day once the day is over, and from the leads
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

/** The UTC day of a time, as a date. */
const utcDay = (time: unknown) => sql`((${time}) AT TIME ZONE 'UTC')::date`;
/** The instant a UTC day (a date) begins; it ends 24 hours later (whatever the session's time zone). */
const dayStart = (day: unknown) => sql`(${day}::timestamp AT TIME ZONE 'UTC')`;

/** A lead's attribution as the counts name it: the campaign source, else the host the visit came from; "" for none. */
const attribution = sql`coalesce(${c.landingPath}, '') AS path, coalesce(${c.utmSource}, ${c.referrerHost}, '') AS source,
  coalesce(${c.utmMedium}, '') AS medium, coalesce(${c.utmCampaign}, '') AS campaign`;

/** Leads received in [startsAt, endsAt): one row each, as a day's totals are. */
const received = (startsAt: unknown, endsAt: unknown) => sql`SELECT ${utcDay(c.receivedAt)} AS day, ${attribution},
  1 AS leads, (${c.status} <> 'Spam')::int AS leads_not_spam, 0 AS booked
  FROM ${c} WHERE ${c.receivedAt} >= ${startsAt} AND ${c.receivedAt} < ${endsAt}`;

/**
 * Leads not marked Spam first set to Booked in [startsAt, endsAt): one row each, on the day they were booked. Each
 * lead's first booking is looked up by its own history (its index), not by every booking before the period.
 */
const firstBooked = (startsAt: unknown, endsAt: unknown) => sql`SELECT ${utcDay(sql`first.booked_at`)} AS day,
  ${attribution}, 0 AS leads, 0 AS leads_not_spam, 1 AS booked
  FROM ${c}, LATERAL (
    SELECT min(${h.changedAt}) AS booked_at FROM ${h} WHERE ${h.contactRequestId} = ${c.id} AND ${h.statusTo} = 'Booked'
  ) AS first
  WHERE ${c.id} IN (
    SELECT ${h.contactRequestId} FROM ${h}
    WHERE ${h.statusTo} = 'Booked' AND ${h.changedAt} >= ${startsAt} AND ${h.changedAt} < ${endsAt}
  )
    AND first.booked_at >= ${startsAt} AND ${c.status} <> 'Spam'`;

/**
 * Sums each UTC day that is over and lies wholly in [startsAt, endsAt) whose totals are not stored at its current
 * version: one statement a day, oldest first, so that on the embedded database other requests run between them.
 * Two requests summing the same day at once store the same totals once.
 */
async function sumDaysOver(db: Database, startsAt: Date, endsAt: Date) {
  const days = await executeRows<{ day: string }>(
    db,
    sql`SELECT series.day::date::text AS day
      FROM generate_series((${utcDay(sql`${startsAt.toISOString()}::timestamptz - interval '1 microsecond'`)} + 1)::timestamp,
        (${utcDay(sql`${endsAt.toISOString()}::timestamptz`)} - 1)::timestamp, interval '1 day') AS series(day)
      LEFT JOIN ${v} ON ${v.day} = series.day::date
      WHERE ${dayStart(sql`series.day::date`)} + interval '24 hours' + ${SUMMED_AFTER} <= now()
        AND (${v.summedVersion} IS NULL OR ${v.summedVersion} <> ${v.version})
      ORDER BY series.day`,
  );
  for (const { day } of days) {
    const starts = dayStart(sql`${day}::date`);
    const ends = sql`${starts} + interval '24 hours'`;
    await db.execute(sql`WITH state AS (
        SELECT ${day}::date AS day, coalesce((SELECT ${v.version} FROM ${v} WHERE ${v.day} = ${day}::date), 0) AS version
      ),
      cleared AS (
        DELETE FROM ${t} WHERE ${t.day} = ${day}::date AND ${t.version} <> (SELECT version FROM state)
      ),
      stored AS (
        INSERT INTO ${t} (day, version, path, source, medium, campaign, leads, leads_not_spam, booked)
        SELECT state.day, state.version, path, source, medium, campaign, sum(leads), sum(leads_not_spam), sum(booked)
        FROM (${received(starts, ends)} UNION ALL ${firstBooked(starts, ends)}) AS figures, state
        GROUP BY state.day, state.version, path, source, medium, campaign
        ON CONFLICT DO NOTHING
      )
      INSERT INTO ${v} (day, version, summed_version) SELECT day, version, version FROM state
      ON CONFLICT (day) DO UPDATE SET summed_version = excluded.summed_version
        WHERE ${v}.version = excluded.summed_version`);
  }
}

const DAY_MS = 86_400_000;

/**
 * Sums the days of the dashboard's longest range that are over and not summed at their current version, so that
 * no view waits for them: hourly housekeeping, and at start, after an upgrade or a restore left every day to sum.
 */
export async function sumRecentDays(db: Database, now = new Date()): Promise<void> {
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
  await sumDaysOver(db, new Date(tomorrow - Math.max(...dashboardRanges) * DAY_MS), new Date(tomorrow));
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
 * The leads' figures in [startsAt, endsAt): per UTC day, per landing page, and per source, medium and campaign. A
 * read of the same period already under way is shared: its rows are the same for every caller, and must not be
 * changed.
 */
export function leadFigures(db: Database, startsAt: Date, endsAt: Date): Promise<readonly LeadFigures[]> {
  let reads = readsUnderWay.get(db);
  if (!reads) readsUnderWay.set(db, (reads = new Map()));
  const period = `${startsAt.toISOString()}/${endsAt.toISOString()}`;
  const underWay = reads.get(period);
  if (underWay) return underWay;
  const read = figuresOfPeriod(db, startsAt, endsAt).finally(() => reads.delete(period));
  reads.set(period, read);
  return read;
}

/**
 * The figures of a period's days that are over, per database, for as long as those days' versions stay as they were
 * when they were read: the triggers raise a day's version whenever a change reaches its figures, from any instance,
 * so a change is read again. At a busy year's size the 90 days' totals take about 100 ms to group on the embedded
 * database, today's leads a fifth of that.
 */
type DaysOverFigures = { startsAt: number; overAt: number; versions: string; rows: readonly LeadFigures[] };
const daysOverFigures = new WeakMap<Database, DaysOverFigures[]>();

/** The versions of the UTC days of [startsAt, endsAt) that have one, as one text. */
async function dayVersionsOf(db: Database, startsAt: Date, endsAt: Date): Promise<string> {
  const [row] = await executeRows<{ versions: string }>(
    db,
    sql`SELECT coalesce(string_agg(${v.day}::text || '=' || ${v.version}, ',' ORDER BY ${v.day}), '') AS versions
      FROM ${v} WHERE ${v.day} >= ${utcDay(sql`${startsAt.toISOString()}::timestamptz`)}
        AND ${v.day} <= ${utcDay(sql`${endsAt.toISOString()}::timestamptz - interval '1 microsecond'`)}`,
  );
  return row!.versions;
}

async function figuresOfPeriod(db: Database, startsAt: Date, endsAt: Date): Promise<LeadFigures[]> {
  // The start of the first day still open, or the period's end if it is over by then.
  const overAt = Math.min(firstOpenDayStart(), endsAt.getTime());
  if (overAt <= startsAt.getTime()) return readLeadFigures(db, startsAt, endsAt);
  // The versions are read before the figures: a change between the two leaves figures stored under older versions,
  // read again next time; never figures older than the versions they are stored under.
  const versions = await dayVersionsOf(db, startsAt, new Date(overAt));
  const period = (figures: DaysOverFigures) => figures.overAt === overAt && figures.startsAt === startsAt.getTime();
  const over = daysOverFigures.get(db)?.find((figures) => period(figures) && figures.versions === versions) ?? {
    startsAt: startsAt.getTime(),
    overAt,
    versions,
    rows: await readLeadFigures(db, startsAt, new Date(overAt)),
  };
  // Figures of other periods over at the same moment are kept (each is checked against its own days' versions when
  // it is asked for again); those over at an earlier moment are dropped.
  const others = (daysOverFigures.get(db) ?? []).filter((figures) => figures.overAt === overAt && !period(figures));
  daysOverFigures.set(db, [...others, over]);
  if (overAt === endsAt.getTime()) return [...over.rows];
  return summedByKey(
    [...over.rows, ...(await readLeadFigures(db, new Date(overAt), endsAt))],
    (row) => [row.grouping, row.day, row.path, row.source, row.medium, row.campaign],
    ["leads", "leadsNotSpam", "booked"],
  );
}

async function readLeadFigures(db: Database, startsAt: Date, endsAt: Date): Promise<LeadFigures[]> {
  await sumDaysOver(db, startsAt, endsAt);
  const from = sql`${startsAt.toISOString()}::timestamptz`;
  const until = sql`${endsAt.toISOString()}::timestamptz`;
  return executeRows<LeadFigures>(
    db,
    sql`WITH summed AS (
      SELECT ${v.day} AS day, ${v.version} AS version FROM ${v}
      WHERE ${v.summedVersion} = ${v.version} AND ${dayStart(v.day)} >= ${from}
        AND ${dayStart(v.day)} + interval '24 hours' <= ${until}
    ),
    -- The rest of the period, a UTC day (or the part of one in the period) at a time.
    unsummed AS (
      SELECT greatest(${dayStart(sql`series.day`)}, ${from}) AS starts_at,
        least(${dayStart(sql`series.day`)} + interval '24 hours', ${until}) AS ends_at
      FROM generate_series(${utcDay(from)}::timestamp, ${utcDay(sql`${until} - interval '1 microsecond'`)}::timestamp,
        interval '1 day') AS series(day)
      WHERE NOT EXISTS (SELECT 1 FROM summed WHERE summed.day = series.day::date)
    ),
    figures AS (
      SELECT ${t.day} AS day, ${t.path} AS path, ${t.source} AS source, ${t.medium} AS medium, ${t.campaign} AS campaign,
        ${t.leads} AS leads, ${t.leadsNotSpam} AS leads_not_spam, ${t.booked} AS booked
      FROM ${t} JOIN summed ON ${t.day} = summed.day AND ${t.version} = summed.version
      UNION ALL
      SELECT live.* FROM unsummed,
        LATERAL (${received(sql`unsummed.starts_at`, sql`unsummed.ends_at`)}
          UNION ALL ${firstBooked(sql`unsummed.starts_at`, sql`unsummed.ends_at`)}) AS live
    )
    SELECT CASE WHEN GROUPING(day) = 0 THEN 0 WHEN GROUPING(path) = 0 THEN 1 ELSE 2 END AS grouping,
      day::text AS day, path, source, medium, campaign, sum(leads)::int AS leads,
      sum(leads_not_spam)::int AS "leadsNotSpam", sum(booked)::int AS booked
    FROM figures
    GROUP BY GROUPING SETS ((day), (path), (source, medium, campaign))`,
  );
}
