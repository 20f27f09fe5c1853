import { and, asc, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import { batchesAfter, type Database } from "../db/index.server.ts";
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
 * Answered calls read per statement: each statement short, so that lead intake goes on between them (a busy site
 * has some 18,000 in 90 days).
 */
const ANSWERED_CALLS_BATCH = 400;

/**
 * Answered calls that started in [from, until) from a visit with an ad click id, with its campaign and click ids:
 * what an "Answered call" conversion is made of. A call without one (a visit not from an ad, or one that sent Global
 * Privacy Control, whose ids are never kept) is not read: no platform can take it, and on a busy site it is most of
 * the calls. Oldest first, a batch at a time, each batch after the last call of the one before (its start to the
 * microsecond, then its id).
 */
export async function answeredCalls(db: Database, from: Date, until: Date) {
  const readBatch = (after?: { at: string; id: string }) =>
    db
      .select({
        id: calls.id,
        answeredAt: calls.startedAt,
        cursorAt: sql<string>`${calls.startedAt}::text`,
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
          after ? sql`(${calls.startedAt}, ${calls.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
        ),
      )
      .orderBy(asc(calls.startedAt), asc(calls.id))
      .limit(ANSWERED_CALLS_BATCH)
      .execute();
  const answered = [];
  const cursorOf = (last: { cursorAt: string; id: string }) => ({ at: last.cursorAt, id: last.id });
  for await (const batch of batchesAfter(readBatch, ANSWERED_CALLS_BATCH, cursorOf)) {
    for (const call of batch) {
      answered.push({
        id: call.id,
        answeredAt: call.answeredAt,
        durationSeconds: call.durationSeconds ?? 0,
        source: call.source ?? "",
        campaign: call.campaign ?? "",
        gclid: call.gclid,
        gbraid: call.gbraid,
        wbraid: call.wbraid,
        msclkid: call.msclkid,
      });
    }
  }
  return answered;
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
