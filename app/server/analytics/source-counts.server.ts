import { and, gte, lte, sql } from "drizzle-orm";
import type { SiteEventKind } from "~/lib/site-events.ts";
import type { Database } from "../db/index.server.ts";
import { siteEventCounts as t } from "./schema.server.ts";

/** Page views, call clicks and form starts per source and campaign over UTC days, for the funnel and the digest. */
export interface SourceCounts {
  source: string;
  campaign: string;
  views: number;
  calls: number;
  formStarts: number;
}

/** The sum of one kind's counts over a group of rows, 0 when there are none. */
export const sumOf = (kind: SiteEventKind) =>
  sql<number>`coalesce(sum(${t.count}) filter (where ${t.kind} = ${kind}), 0)::int`;

/** The counts of the days `from` to `to` (ISO dates, both included), read by the aggregates' leading day key. */
export function countsBySourceAndCampaign(db: Database, from: string, to: string): Promise<SourceCounts[]> {
  return db
    .select({
      source: t.source,
      campaign: t.campaign,
      views: sumOf("view"),
      calls: sumOf("call"),
      formStarts: sumOf("form"),
    })
    .from(t)
    .where(and(gte(t.day, from), lte(t.day, to)))
    .groupBy(t.source, t.campaign);
}
