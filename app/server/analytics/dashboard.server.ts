import { asc, eq, sql } from "drizzle-orm";
import { addDays, localDate, zonedInstant } from "~/lib/operator-time.ts";
import { firstOpenDay, summedByKey, topRows, type DashboardRange, type TopRows } from "~/lib/dashboard-figures.ts";
import { executeRows, type Database } from "../db/index.server.ts";
import { callCounts, type CallCounts } from "../calls/index.server.ts";
import { csvCell, leadCounts } from "../leads/index.server.ts";
import { siteEventCounts, siteEventCountsVersion } from "./schema.server.ts";
import { sumOf } from "./source-counts.server.ts";

export interface DayFigures {
  day: string;
  views: number;
  calls: number;
  leads: number;
  optOuts: number;
}

type Activity = { views: number; calls: number; leads: number };

interface DashboardData {
  range: DashboardRange;
  from: string;
  to: string;
  totals: Omit<DayFigures, "day">;
  /** Every day of the range, oldest first, zeros included, so the chart has no gaps. */
  days: DayFigures[];
  byPage: TopRows<{ path: string } & Activity, Activity>;
  byPlacement: TopRows<{ placement: string; calls: number }, { calls: number }>;
  bySource: TopRows<
    {
      source: string;
      medium: string;
      campaign: string;
      /** First inputs in a contact form. */
      formStarts: number;
    } & Activity,
    Activity
  >;
  /** Phone calls answered and missed, as the call log has them, beside the taps counted as "calls" above. */
  phoneCalls: CallCounts;
}

/**
 * The first and last day of a range ending on `today`, as ISO dates of the operator's calendar (OPERATOR_TIME_ZONE),
 * and the instants the first begins and the last ends: midnight to midnight on the operator's clock, so a day of a
 * daylight saving change has 23 or 25 hours.
 */
export function rangeDays(range: DashboardRange, timeZone: string, today = new Date()) {
  const to = localDate(today, timeZone);
  const from = addDays(to, 1 - range);
  return { from, to, startsAt: zonedInstant(from, 0, timeZone), endsAt: zonedInstant(addDays(to, 1), 0, timeZone) };
}

const t = siteEventCounts;
type GroupedCounts = {
  /** Which grouping the row is: 0 by day, 1 by page, 2 by placement, 3 by source, medium and campaign. */
  grouping: 0 | 1 | 2 | 3;
  day: string | null;
  path: string | null;
  placement: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  views: number;
  calls: number;
  formStarts: number;
  /** Aggregate rows of call taps: a placement is listed only with some. */
  callRows: number;
};

/** The site's counts of the days `from` to `to` (ISO dates, both included), read once for all four groupings. */
const groupedCounts = (db: Database, from: string, to: string) =>
  executeRows<GroupedCounts>(
    db,
    sql`SELECT CASE WHEN GROUPING(${t.day}) = 0 THEN 0 WHEN GROUPING(${t.path}) = 0 THEN 1
        WHEN GROUPING(${t.placement}) = 0 THEN 2 ELSE 3 END AS grouping,
      ${t.day} AS day, ${t.path} AS path, ${t.placement} AS placement, ${t.source} AS source,
      ${t.medium} AS medium, ${t.campaign} AS campaign, ${sumOf("view")} AS views, ${sumOf("call")} AS calls,
      ${sumOf("form")} AS "formStarts", (count(*) FILTER (WHERE ${t.kind} = 'call'))::int AS "callRows"
    FROM ${t} WHERE ${t.day} >= ${from} AND ${t.day} <= ${to}
    GROUP BY GROUPING SETS ((${t.day}), (${t.path}), (${t.placement}), (${t.source}, ${t.medium}, ${t.campaign}))`,
  );

/**
 * The sums of a range's days that are over, per database, for as long as the database's version of the counts
 * stays as it was when they were read: the database raises it whenever a statement writes to a day before the
 * current one, so what another instance or a late write adds is read again. On the embedded database at a busy
 * year's size the 90 days' counts take over 100 ms to group, and the days still open a few.
 */
type DaysOverSums = { from: string; through: string; version: number; rows: GroupedCounts[] };
const daysOverSums = new WeakMap<Database, DaysOverSums[]>();

async function siteCounts(db: Database, from: string, to: string, now: Date, timeZone: string) {
  // The counts are kept per operator day, and the database's triggers raise the version for a write to a day before
  // the current one in the same zone.
  const firstOpen = firstOpenDay(timeZone, now.getTime());
  if (firstOpen <= from) return groupedCounts(db, from, to);
  const through = addDays(firstOpen, -1);
  // The version is read before the sums: a write between the two leaves sums stored under an older version, read
  // again next time; never sums older than the version they are stored under.
  const [current] = await db.select({ version: siteEventCountsVersion.version }).from(siteEventCountsVersion);
  const version = current!.version;
  // Sums of other ranges ending on the same day and at the same version are kept; older ones are not read again.
  const held = (daysOverSums.get(db) ?? []).filter((sums) => sums.through === through && sums.version === version);
  let over = held.find((sums) => sums.from === from);
  if (over === undefined) {
    over = { from, through, version, rows: await groupedCounts(db, from, through) };
    held.push(over);
  }
  daysOverSums.set(db, held);
  return summedByKey(
    [...over.rows, ...(await groupedCounts(db, firstOpen, to))],
    (row) => [row.grouping, row.day, row.path, row.placement, row.source, row.medium, row.campaign],
    ["views", "calls", "formStarts", "callRows"],
  );
}

/**
 * The dashboard's figures for a range: page views and calls from the daily aggregates (the days that are over
 * summed once per version), leads and opt-outs from the leads module, phone calls from the calls module: every day
 * the operator's, in `timeZone` (OPERATOR_TIME_ZONE).
 */
export async function dashboardData(
  db: Database,
  range: DashboardRange,
  timeZone: string,
  today = new Date(),
): Promise<DashboardData> {
  const { from, to, startsAt, endsAt } = rangeDays(range, timeZone, today);
  const [counts, leads, phoneCalls] = await Promise.all([
    siteCounts(db, from, to, today, timeZone),
    leadCounts(db, startsAt, endsAt, timeZone),
    callCounts(db, startsAt, endsAt, timeZone),
  ]);
  const of = (grouping: GroupedCounts["grouping"]) => counts.filter((row) => row.grouping === grouping);
  const eventDays = of(0).map((row) => ({ day: row.day!, views: row.views, calls: row.calls }));
  const byPage = of(1).map((row) => ({ path: row.path!, views: row.views, calls: row.calls }));
  const byPlacement = of(2)
    .filter((row) => row.callRows > 0)
    .map((row) => ({ placement: row.placement!, calls: row.calls }))
    .sort((a, b) => b.calls - a.calls || (a.placement < b.placement ? -1 : a.placement > b.placement ? 1 : 0));
  const bySource = of(3).map((row) => ({
    source: row.source!,
    medium: row.medium!,
    campaign: row.campaign!,
    views: row.views,
    calls: row.calls,
    formStarts: row.formStarts,
  }));

  const days: DayFigures[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const events = eventDays.find((row) => row.day === day);
    days.push({
      day,
      views: events?.views ?? 0,
      calls: events?.calls ?? 0,
      leads: leads.byDay.find((row) => row.day === day)?.leads ?? 0,
      optOuts: leads.optOutsByDay.find((row) => row.day === day)?.optOuts ?? 0,
    });
  }
  const totals = days.reduce(
    (sum, day) => ({
      views: sum.views + day.views,
      calls: sum.calls + day.calls,
      leads: sum.leads + day.leads,
      optOuts: sum.optOuts + day.optOuts,
    }),
    { views: 0, calls: 0, leads: 0, optOuts: 0 },
  );

  const pages = new Map(byPage.map((row) => [row.path, { ...row, leads: 0 }]));
  for (const row of leads.byPage) {
    const page = pages.get(row.path) ?? { path: row.path, views: 0, calls: 0, leads: 0 };
    pages.set(row.path, { ...page, leads: row.leads });
  }
  const sourceKey = (row: { source: string; medium: string; campaign: string }) =>
    JSON.stringify([row.source, row.medium, row.campaign]);
  const sources = new Map(bySource.map((row) => [sourceKey(row), { ...row, leads: 0 }]));
  for (const row of leads.bySource) {
    const source = sources.get(sourceKey(row)) ?? { ...row, views: 0, calls: 0, formStarts: 0 };
    sources.set(sourceKey(row), { ...source, leads: row.leads });
  }
  // A page or source with phone calls but nothing else counted still gets its row.
  for (const row of phoneCalls.byPage) {
    if (!pages.has(row.path)) pages.set(row.path, { path: row.path, views: 0, calls: 0, leads: 0 });
  }
  for (const { source, medium, campaign } of phoneCalls.bySource) {
    const key = sourceKey({ source, medium, campaign });
    if (!sources.has(key)) sources.set(key, { source, medium, campaign, views: 0, calls: 0, formStarts: 0, leads: 0 });
  }
  const byActivity = <T extends { views: number; calls: number; leads: number }>(a: T, b: T) =>
    b.calls + b.leads - (a.calls + a.leads) || b.views - a.views;

  return {
    range,
    from,
    to,
    totals,
    days,
    byPage: topRows([...pages.values()].sort(byActivity), ["views", "calls", "leads"]),
    byPlacement: topRows(byPlacement, ["calls"]),
    bySource: topRows([...sources.values()].sort(byActivity), ["views", "calls", "leads"]),
    phoneCalls,
  };
}

const CSV_COLUMNS = ["day", "path", "kind", "placement", "source", "medium", "campaign", "count"] as const;

/**
 * The daily aggregates of a range, oldest first, as CSV safe to open in a spreadsheet, a day a statement: at a busy
 * year's size 90 days are 72,000 rows, which read in one statement held the embedded database, and every lead
 * arriving, for 2 s; a day's rows are bounded by the named campaigns a day (docs/decisions/106).
 */
export async function* dailyAggregatesCsv(db: Database, range: DashboardRange, timeZone: string, today = new Date()) {
  const { from, to } = rangeDays(range, timeZone, today);
  yield CSV_COLUMNS.join(",") + "\r\n";
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const rows = await db
      .select({
        day: t.day,
        path: t.path,
        kind: t.kind,
        placement: t.placement,
        source: t.source,
        medium: t.medium,
        campaign: t.campaign,
        count: t.count,
      })
      .from(t)
      .where(eq(t.day, day))
      .orderBy(asc(t.path), asc(t.kind), asc(t.placement), asc(t.source), asc(t.medium), asc(t.campaign));
    let text = "";
    for (const row of rows) text += CSV_COLUMNS.map((column) => csvCell(String(row[column]))).join(",") + "\r\n";
    if (text) yield text;
  }
}
