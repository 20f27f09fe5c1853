import { and, gte, lt, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { calls } from "./schema.server.ts";

/**
 * Calls answered and missed (a voicemail is a missed call too) in a range of UTC days: per day, by the landing
 * page of the visit that held the number, and by its source, medium and campaign. Calls still ringing count in neither.
 */
export interface CallCounts {
  totals: { answered: number; missed: number };
  days: { day: string; answered: number; missed: number }[];
  byPage: { path: string; answered: number; missed: number }[];
  bySource: { source: string; medium: string; campaign: string; answered: number; missed: number }[];
}

const answered = sql<number>`(count(*) filter (where ${calls.status} = 'answered'))::int`;
const missed = sql<number>`(count(*) filter (where ${calls.status} not in ('answered', 'ringing')))::int`;

export async function callCounts(db: Database, startsAt: Date, endsAt: Date): Promise<CallCounts> {
  const inRange = and(gte(calls.startedAt, startsAt), lt(calls.startedAt, endsAt));
  const [days, byPage, bySource] = await Promise.all([
    db
      .select({ day: sql<string>`to_char(${calls.startedAt} at time zone 'UTC', 'YYYY-MM-DD')`, answered, missed })
      .from(calls)
      .where(inRange)
      .groupBy(sql`1`)
      .orderBy(sql`1`),
    db
      .select({ path: sql<string>`coalesce(${calls.landingPath}, '')`, answered, missed })
      .from(calls)
      .where(inRange)
      .groupBy(sql`1`),
    db
      .select({
        // The source as the site's counts name it: the campaign source, else the host the visit came from.
        source: sql<string>`coalesce(${calls.utmSource}, ${calls.referrerHost}, '')`,
        medium: sql<string>`coalesce(${calls.utmMedium}, '')`,
        campaign: sql<string>`coalesce(${calls.utmCampaign}, '')`,
        answered,
        missed,
      })
      .from(calls)
      .where(inRange)
      .groupBy(sql`1`, sql`2`, sql`3`),
  ]);
  const totals = days.reduce(
    (sum, day) => ({ answered: sum.answered + day.answered, missed: sum.missed + day.missed }),
    { answered: 0, missed: 0 },
  );
  return { totals, days, byPage, bySource };
}
