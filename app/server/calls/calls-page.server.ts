import { and, asc, gte, sql, type SQL } from "drizzle-orm";
import type { PageAfter } from "../leads/index.server.ts";
import type { Database } from "../db/index.server.ts";
import { calls } from "./schema.server.ts";

/** Calls started since `since`, oldest first, `limit` of them after `after` (start time, then id): a keyset page. */
export function callsPage(db: Database, query: { since: Date | null; after: PageAfter | null; limit: number }) {
  const conditions: SQL[] = [];
  if (query.since) conditions.push(gte(calls.startedAt, query.since));
  if (query.after) {
    conditions.push(sql`(${calls.startedAt}, ${calls.id}) > (${query.after.at}::timestamptz, ${query.after.id}::uuid)`);
  }
  return db
    .select({
      id: calls.id,
      startedAt: calls.startedAt,
      cursorAt: sql<string>`${calls.startedAt}::text`,
      caller: calls.caller,
      called: calls.called,
      line: calls.line,
      status: calls.status,
      durationSeconds: calls.durationSeconds,
      endedAt: calls.endedAt,
      landingPath: calls.landingPath,
      utmSource: calls.utmSource,
      utmMedium: calls.utmMedium,
      utmCampaign: calls.utmCampaign,
      gclid: calls.gclid,
      msclkid: calls.msclkid,
    })
    .from(calls)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(calls.startedAt), asc(calls.id))
    .limit(query.limit);
}
