import { and, eq, gte, isNotNull, lt } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { calls } from "./schema.server.ts";

/**
 * Answered calls that started in [from, until), with the visit's campaign and ad click ids (none when the
 * visit sent Global Privacy Control): what an "Answered call" conversion is made of.
 */
export async function answeredCalls(db: Database, from: Date, until: Date) {
  const rows = await db
    .select({
      id: calls.id,
      answeredAt: calls.startedAt,
      durationSeconds: calls.durationSeconds,
      source: calls.utmSource,
      campaign: calls.utmCampaign,
      gclid: calls.gclid,
      gbraid: calls.gbraid,
      wbraid: calls.wbraid,
      msclkid: calls.msclkid,
    })
    .from(calls)
    .where(
      and(
        eq(calls.status, "answered"),
        isNotNull(calls.durationSeconds),
        gte(calls.startedAt, from),
        lt(calls.startedAt, until),
      ),
    );
  return rows.map((row) => ({
    ...row,
    durationSeconds: row.durationSeconds ?? 0,
    source: row.source ?? "",
    campaign: row.campaign ?? "",
  }));
}
