import { and, asc, desc, eq, gte, lt, lte, sql } from "drizzle-orm";
import type { DashboardRange } from "~/lib/dashboard-figures.ts";
import type { SiteEventKind } from "~/lib/site-events.ts";
import type { Database } from "../db/db.server.ts";
import { contactRequests, privacyRequests } from "../leads/schema.server.ts";
import { siteEventCounts } from "./schema.server.ts";

const DAY_MS = 86_400_000;

export interface DayFigures {
  day: string;
  views: number;
  calls: number;
  leads: number;
  optOuts: number;
}

interface DashboardData {
  range: DashboardRange;
  from: string;
  to: string;
  totals: Omit<DayFigures, "day">;
  /** Every day of the range, oldest first, zeros included, so the chart has no gaps. */
  days: DayFigures[];
  byPage: { path: string; views: number; calls: number; leads: number }[];
  byPlacement: { placement: string; calls: number }[];
  bySource: {
    source: string;
    medium: string;
    campaign: string;
    views: number;
    calls: number;
    /** First inputs in a contact form. */
    formStarts: number;
    leads: number;
  }[];
}

/** The first and last day of a range ending on `today`, as ISO dates, and the instant after the last one. */
export function rangeDays(range: DashboardRange, today = new Date()) {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const start = end - (range - 1) * DAY_MS;
  return {
    from: new Date(start).toISOString().slice(0, 10),
    to: new Date(end).toISOString().slice(0, 10),
    startsAt: new Date(start),
    endsAt: new Date(end + DAY_MS),
  };
}

const t = siteEventCounts;
const sumOf = (kind: SiteEventKind) =>
  sql<number>`coalesce(sum(${t.count}) filter (where ${t.kind} = ${kind}), 0)::int`;
const utcDay = (column: typeof contactRequests.receivedAt | typeof privacyRequests.receivedAt) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
/** A lead's source as the counts name it: the campaign source, else the host the visit came from. */
const leadSource = sql<string>`coalesce(${contactRequests.utmSource}, ${contactRequests.referrerHost}, '')`;

/**
 * The dashboard's figures for a range: page views and calls from the daily aggregates, leads and opt-outs from
 * the requests themselves (UTC days). Each query reads only the range, by the aggregates' leading day key and
 * the requests' received_at indexes.
 */
export async function dashboardData(db: Database, range: DashboardRange, today = new Date()): Promise<DashboardData> {
  const { from, to, startsAt, endsAt } = rangeDays(range, today);
  const inRange = and(gte(t.day, from), lte(t.day, to));
  const leadsInRange = and(gte(contactRequests.receivedAt, startsAt), lt(contactRequests.receivedAt, endsAt));
  const [eventDays, leadDays, optOutDays, byPage, leadsByPage, byPlacement, bySource, leadsBySource] =
    await Promise.all([
      db
        .select({ day: t.day, views: sumOf("view"), calls: sumOf("call") })
        .from(t)
        .where(inRange)
        .groupBy(t.day),
      db
        .select({ day: utcDay(contactRequests.receivedAt), leads: sql<number>`count(*)::int` })
        .from(contactRequests)
        .where(leadsInRange)
        .groupBy(sql`1`),
      db
        .select({ day: utcDay(privacyRequests.receivedAt), optOuts: sql<number>`count(*)::int` })
        .from(privacyRequests)
        .where(and(gte(privacyRequests.receivedAt, startsAt), lt(privacyRequests.receivedAt, endsAt)))
        .groupBy(sql`1`),
      db
        .select({ path: t.path, views: sumOf("view"), calls: sumOf("call") })
        .from(t)
        .where(inRange)
        .groupBy(t.path),
      db
        .select({ path: sql<string>`coalesce(${contactRequests.landingPath}, '')`, leads: sql<number>`count(*)::int` })
        .from(contactRequests)
        .where(leadsInRange)
        .groupBy(sql`1`),
      db
        .select({ placement: t.placement, calls: sql<number>`sum(${t.count})::int` })
        .from(t)
        .where(and(inRange, eq(t.kind, "call")))
        .groupBy(t.placement)
        .orderBy(desc(sql`2`), asc(t.placement)),
      db
        .select({
          source: t.source,
          medium: t.medium,
          campaign: t.campaign,
          views: sumOf("view"),
          calls: sumOf("call"),
          formStarts: sumOf("form"),
        })
        .from(t)
        .where(inRange)
        .groupBy(t.source, t.medium, t.campaign),
      db
        .select({
          source: leadSource,
          medium: sql<string>`coalesce(${contactRequests.utmMedium}, '')`,
          campaign: sql<string>`coalesce(${contactRequests.utmCampaign}, '')`,
          leads: sql<number>`count(*)::int`,
        })
        .from(contactRequests)
        .where(leadsInRange)
        .groupBy(sql`1`, sql`2`, sql`3`),
    ]);

  const days: DayFigures[] = [];
  for (let time = startsAt.getTime(); time < endsAt.getTime(); time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10);
    const events = eventDays.find((row) => row.day === day);
    days.push({
      day,
      views: events?.views ?? 0,
      calls: events?.calls ?? 0,
      leads: leadDays.find((row) => row.day === day)?.leads ?? 0,
      optOuts: optOutDays.find((row) => row.day === day)?.optOuts ?? 0,
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
  for (const row of leadsByPage) {
    const page = pages.get(row.path) ?? { path: row.path, views: 0, calls: 0, leads: 0 };
    pages.set(row.path, { ...page, leads: row.leads });
  }
  const sourceKey = (row: { source: string; medium: string; campaign: string }) =>
    JSON.stringify([row.source, row.medium, row.campaign]);
  const sources = new Map(bySource.map((row) => [sourceKey(row), { ...row, leads: 0 }]));
  for (const row of leadsBySource) {
    const source = sources.get(sourceKey(row)) ?? { ...row, views: 0, calls: 0, formStarts: 0 };
    sources.set(sourceKey(row), { ...source, leads: row.leads });
  }
  const byActivity = <T extends { views: number; calls: number; leads: number }>(a: T, b: T) =>
    b.calls + b.leads - (a.calls + a.leads) || b.views - a.views;

  return {
    range,
    from,
    to,
    totals,
    days,
    byPage: [...pages.values()].sort(byActivity),
    byPlacement,
    bySource: [...sources.values()].sort(byActivity),
  };
}

/** The daily aggregates of a range, oldest first, for the CSV download. */
export function dailyAggregates(db: Database, range: DashboardRange, today = new Date()) {
  const { from, to } = rangeDays(range, today);
  return db
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
    .where(and(gte(t.day, from), lte(t.day, to)))
    .orderBy(asc(t.day), asc(t.path), asc(t.kind), asc(t.placement), asc(t.source), asc(t.medium), asc(t.campaign));
}
