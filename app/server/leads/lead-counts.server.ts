import { and, gte, lt, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { contactRequests, privacyRequests } from "./schema.server.ts";

const utcDay = (column: typeof contactRequests.receivedAt | typeof privacyRequests.receivedAt) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
/** A lead's source as the counts name it: the campaign source, else the host the visit came from. */
const leadSource = sql<string>`coalesce(${contactRequests.utmSource}, ${contactRequests.referrerHost}, '')`;

/**
 * Leads and opt-outs received in [startsAt, endsAt): per UTC day, per landing page, and per source, medium and
 * campaign, for the dashboard. Each query reads only the range, by the received_at indexes.
 */
export async function leadCounts(db: Database, startsAt: Date, endsAt: Date) {
  const leadsInRange = and(gte(contactRequests.receivedAt, startsAt), lt(contactRequests.receivedAt, endsAt));
  const [byDay, optOutsByDay, byPage, bySource] = await Promise.all([
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
      .select({ path: sql<string>`coalesce(${contactRequests.landingPath}, '')`, leads: sql<number>`count(*)::int` })
      .from(contactRequests)
      .where(leadsInRange)
      .groupBy(sql`1`),
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
  return { byDay, optOutsByDay, byPage, bySource };
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
