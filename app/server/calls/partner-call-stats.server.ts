import { and, eq, sql } from "drizzle-orm";
import { isRowId } from "~/lib/row-id.ts";
import type { Database } from "../db/index.server.ts";
import { callOffers, calls } from "./schema.server.ts";

/** A partner's calls as their console page shows them: offered (rang), taken (pressed 1), billed, answer rate. */
export interface PartnerCallStats {
  offered: number;
  taken: number;
  billed: number;
  /** Taken of offered, a whole percentage; null before any offer. */
  answerRatePercent: number | null;
}

export async function partnerCallStats(db: Database, partnerId: string): Promise<PartnerCallStats> {
  if (!isRowId(partnerId)) return { offered: 0, taken: 0, billed: 0, answerRatePercent: null };
  const [[offers], billed] = await Promise.all([
    db
      .select({
        offered: sql<number>`count(*)::int`,
        taken: sql<number>`(count(*) FILTER (WHERE ${callOffers.takenAt} IS NOT NULL))::int`,
      })
      .from(callOffers)
      .where(eq(callOffers.partnerId, partnerId)),
    db.$count(calls, and(eq(calls.partnerId, partnerId), eq(calls.billing, "billable"))),
  ]);
  const offered = offers?.offered ?? 0;
  const taken = offers?.taken ?? 0;
  return { offered, taken, billed, answerRatePercent: offered === 0 ? null : Math.round((taken / offered) * 100) };
}
