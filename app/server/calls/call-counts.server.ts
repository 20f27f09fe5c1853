import { sql } from "drizzle-orm";
import { executeRows, type Database } from "../db/index.server.ts";
import { keptForDaysOver } from "./days-over.server.ts";
import { calls } from "./schema.server.ts";

/**
 * Calls answered and missed (a voicemail is a missed call too) in a range of the operator's days: per day, by the landing
 * page of the visit that held the number, and by its source, medium and campaign. Calls still ringing count in neither.
 */
export interface CallCounts {
  totals: { answered: number; missed: number };
  days: { day: string; answered: number; missed: number }[];
  byPage: { path: string; answered: number; missed: number }[];
  bySource: { source: string; medium: string; campaign: string; answered: number; missed: number }[];
}

type GroupedCalls = {
  /** Which grouping the row is: 0 by day, 1 by landing page, 2 by source, medium and campaign. */
  grouping: 0 | 1 | 2;
  day: string | null;
  path: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  answered: number;
  missed: number;
};

/**
 * The calls that started in [startsAt, endsAt), read once, by the started_at index, for all three groupings; each
 * on its day in `timeZone` (OPERATOR_TIME_ZONE).
 */
function groupedCalls(db: Database, startsAt: Date, endsAt: Date, timeZone: string): Promise<GroupedCalls[]> {
  const c = calls;
  return executeRows<GroupedCalls>(
    db,
    sql`SELECT CASE WHEN GROUPING(day) = 0 THEN 0 WHEN GROUPING(path) = 0 THEN 1 ELSE 2 END AS grouping,
      day::text AS day, path, source, medium, campaign,
      (count(*) FILTER (WHERE status = 'answered'))::int AS answered,
      (count(*) FILTER (WHERE status NOT IN ('answered', 'ringing')))::int AS missed
    FROM (
      SELECT (${c.startedAt} AT TIME ZONE ${timeZone}::text)::date AS day, coalesce(${c.landingPath}, '') AS path,
        -- The source as the site's counts name it: the campaign source, else the host the visit came from.
        coalesce(${c.utmSource}, ${c.referrerHost}, '') AS source, coalesce(${c.utmMedium}, '') AS medium,
        coalesce(${c.utmCampaign}, '') AS campaign, ${c.status} AS status
      FROM ${c} WHERE ${c.startedAt} >= ${startsAt.toISOString()}::timestamptz
        AND ${c.startedAt} < ${endsAt.toISOString()}::timestamptz
    ) AS started
    GROUP BY GROUPING SETS ((day), (path), (source, medium, campaign))`,
  );
}

/** The calls of a range grouped three ways, those of the days that are over counted once per version of them. */
const callsOfRange = keptForDaysOver(
  groupedCalls,
  (row) => [row.grouping, row.day, row.path, row.source, row.medium, row.campaign],
  ["answered", "missed"],
);

/**
 * The calls of [startsAt, endsAt), per day in `timeZone`: those before the first UTC day still open counted once per
 * version of them, the rest on each call (a day that straddles the two has its parts summed).
 */
export async function callCounts(db: Database, startsAt: Date, endsAt: Date, timeZone: string): Promise<CallCounts> {
  const grouped = await callsOfRange(db, startsAt, endsAt, timeZone);
  const of = (grouping: GroupedCalls["grouping"]) => grouped.filter((row) => row.grouping === grouping);
  const days = of(0)
    .map((row) => ({ day: row.day!, answered: row.answered, missed: row.missed }))
    .sort((a, b) => (a.day < b.day ? -1 : 1));
  const totals = days.reduce(
    (sum, day) => ({ answered: sum.answered + day.answered, missed: sum.missed + day.missed }),
    { answered: 0, missed: 0 },
  );
  return {
    totals,
    days,
    byPage: of(1).map((row) => ({ path: row.path!, answered: row.answered, missed: row.missed })),
    bySource: of(2).map((row) => ({
      source: row.source!,
      medium: row.medium!,
      campaign: row.campaign!,
      answered: row.answered,
      missed: row.missed,
    })),
  };
}
