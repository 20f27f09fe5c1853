import { and, gte, lt, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { leadFigures } from "./lead-day-totals.server.ts";
import { contactRequests, privacyRequests } from "./schema.server.ts";

/**
 * Leads and opt-outs received in [startsAt, endsAt): per day in `timeZone` (OPERATOR_TIME_ZONE), per landing page,
 * and per source, medium and campaign, for the dashboard.
 */
export async function leadCounts(db: Database, startsAt: Date, endsAt: Date, timeZone: string) {
  const [figures, optOutsByDay] = await Promise.all([
    leadFigures(db, startsAt, endsAt, timeZone),
    db
      .select({
        day: sql<string>`to_char(${privacyRequests.receivedAt} at time zone ${timeZone}::text, 'YYYY-MM-DD')`,
        optOuts: sql<number>`count(*)::int`,
      })
      .from(privacyRequests)
      .where(and(gte(privacyRequests.receivedAt, startsAt), lt(privacyRequests.receivedAt, endsAt)))
      .groupBy(sql`1`),
  ]);
  // A day, page or source with only leads booked in the period (received before it) has no leads to show.
  const of = (grouping: 0 | 1 | 2) => figures.filter((row) => row.grouping === grouping && row.leads > 0);
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
