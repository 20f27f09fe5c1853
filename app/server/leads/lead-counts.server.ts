import { and, gte, lt, sql } from "drizzle-orm";
import { executeRows, type Database } from "../db/index.server.ts";
import { contactRequests, privacyRequests } from "./schema.server.ts";

/** A lead's source as the counts name it: the campaign source, else the host the visit came from. */
const leadSource = sql`coalesce(${contactRequests.utmSource}, ${contactRequests.referrerHost}, '')`;

type GroupedLeads = {
  /** Which grouping the row is: 0 by day, 1 by landing page, 2 by source, medium and campaign. */
  grouping: 0 | 1 | 2;
  day: string | null;
  path: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  leads: number;
};

/**
 * Leads and opt-outs received in [startsAt, endsAt): per UTC day, per landing page, and per source, medium and
 * campaign, for the dashboard. The leads are read once, by the received_at index, for all three groupings.
 */
export async function leadCounts(db: Database, startsAt: Date, endsAt: Date) {
  const from = sql`${startsAt.toISOString()}::timestamptz`;
  const until = sql`${endsAt.toISOString()}::timestamptz`;
  const c = contactRequests;
  const [grouped, optOutsByDay] = await Promise.all([
    executeRows<GroupedLeads>(
      db,
      sql`SELECT CASE WHEN GROUPING(day) = 0 THEN 0 WHEN GROUPING(path) = 0 THEN 1 ELSE 2 END AS grouping,
        day::text AS day, path, source, medium, campaign, count(*)::int AS leads
      FROM (
        SELECT (${c.receivedAt} AT TIME ZONE 'UTC')::date AS day, coalesce(${c.landingPath}, '') AS path,
          ${leadSource} AS source, coalesce(${c.utmMedium}, '') AS medium, coalesce(${c.utmCampaign}, '') AS campaign
        FROM ${c} WHERE ${c.receivedAt} >= ${from} AND ${c.receivedAt} < ${until}
      ) AS received
      GROUP BY GROUPING SETS ((day), (path), (source, medium, campaign))`,
    ),
    db
      .select({
        day: sql<string>`to_char(${privacyRequests.receivedAt} at time zone 'UTC', 'YYYY-MM-DD')`,
        optOuts: sql<number>`count(*)::int`,
      })
      .from(privacyRequests)
      .where(and(gte(privacyRequests.receivedAt, startsAt), lt(privacyRequests.receivedAt, endsAt)))
      .groupBy(sql`1`),
  ]);
  const of = (grouping: GroupedLeads["grouping"]) => grouped.filter((row) => row.grouping === grouping);
  return {
    byDay: of(0).map((row) => ({ day: row.day!, leads: row.leads })),
    optOutsByDay,
    byPage: of(1).map((row) => ({ path: row.path!, leads: row.leads })),
    bySource: of(2).map((row) => ({
      source: row.source!,
      medium: row.medium!,
      campaign: row.campaign!,
      leads: row.leads,
    })),
  };
}

/** What waits for the operator, shown in the console's navigation on every page. */
export interface OpenRequestCounts {
  newLeads: number;
  openOptOuts: number;
}

export async function openRequestCounts(db: Database): Promise<OpenRequestCounts> {
  const [[leads], [optOuts]] = await Promise.all([
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(contactRequests)
      .where(sql`${contactRequests.status} = 'New'`),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(privacyRequests)
      .where(sql`${privacyRequests.completedAt} IS NULL`),
  ]);
  return { newLeads: leads?.total ?? 0, openOptOuts: optOuts?.total ?? 0 };
}
