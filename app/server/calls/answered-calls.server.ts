import { and, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { keptForDaysOver } from "./days-over.server.ts";
import { calls } from "./schema.server.ts";

const answeredBetween = (from: Date, until: Date) =>
  and(
    eq(calls.status, "answered"),
    isNotNull(calls.durationSeconds),
    gte(calls.startedAt, from),
    lt(calls.startedAt, until),
  );

/**
 * Answered calls that started in [from, until) from a visit with an ad click id, with its campaign and click ids:
 * what an "Answered call" conversion is made of. A call without one (a visit not from an ad, or one that sent Global
 * Privacy Control, whose ids are never kept) is not read: no platform can take it, and on a busy site it is most of
 * the calls.
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
        answeredBetween(from, until),
        sql`(${calls.gclid} <> '' OR ${calls.gbraid} <> '' OR ${calls.wbraid} <> '' OR ${calls.msclkid} <> '')`,
      ),
    );
  return rows.map((row) => ({
    ...row,
    durationSeconds: row.durationSeconds ?? 0,
    source: row.source ?? "",
    campaign: row.campaign ?? "",
  }));
}

/**
 * How many calls that started in [from, until) were answered and lasted at least `minSeconds`, per the visit's
 * campaign source and campaign ("" for none): counted by the database, not read a call at a time (a busy quarter
 * has tens of thousands), those of the days that are over once per version of them.
 */
export const answeredCallCounts = keptForDaysOver(
  (db: Database, from: Date, until: Date, minSeconds: number) => {
    const source = sql<string>`coalesce(${calls.utmSource}, '')`;
    const campaign = sql<string>`coalesce(${calls.utmCampaign}, '')`;
    return db
      .select({ source, campaign, calls: sql<number>`count(*)::int` })
      .from(calls)
      .where(and(answeredBetween(from, until), gte(calls.durationSeconds, minSeconds)))
      .groupBy(source, campaign)
      .execute();
  },
  (row) => [row.source, row.campaign],
  ["calls"],
);
