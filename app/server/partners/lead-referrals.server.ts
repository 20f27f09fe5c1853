import { asc, eq, sql } from "drizzle-orm";
import { type Database, sqlNames } from "../db/index.server.ts";
import { formatTime } from "../../lib/operator-time.ts";
import { isRowId } from "../../lib/row-id.ts";
import { formatDuration } from "../../lib/duration.ts";
import { withdrawnSql } from "./referrals.server.ts";
import { partners, referrals } from "./schema.server.ts";

/** A lead's referrals as its page shows them: each offer and its answer, and who has the job. */

interface LeadReferral {
  id: string;
  partnerName: string;
  offeredAt: string;
  /**
   * "Accepted", "Declined", "Taken by another partner" (unanswered when another accepted), "Withdrawn" (the visitor
   * opted out of sharing since), "Expired" or "Waiting".
   */
  state: string;
  answeredAt: string | null;
  /** How long the partner took to answer. */
  answeredIn: string | null;
}

export interface LeadReferrals {
  offers: LeadReferral[];
  /** The partner who accepted the job, and how fast. */
  holder: { partnerName: string; business: string; phone: string; answeredIn: string } | null;
}

export async function leadReferrals(db: Database, leadId: string, timeZone: string): Promise<LeadReferrals> {
  if (!isRowId(leadId)) return { offers: [], holder: null };
  const rows = await db
    .select({
      id: referrals.id,
      partnerName: partners.name,
      business: partners.business,
      phone: partners.phone,
      offeredAt: referrals.offeredAt,
      expiresAt: referrals.expiresAt,
      answer: referrals.answer,
      answeredAt: referrals.answeredAt,
      withdrawn: sql<boolean>`${sql.raw(withdrawnSql(sqlNames(referrals).table))}`,
    })
    .from(referrals)
    .innerJoin(partners, eq(partners.id, referrals.partnerId))
    .where(eq(referrals.contactRequestId, leadId))
    .orderBy(asc(referrals.offeredAt), asc(partners.name));
  const took = (row: (typeof rows)[number]) =>
    row.answeredAt ? formatDuration(Math.round((row.answeredAt.getTime() - row.offeredAt.getTime()) / 1000)) : null;
  const accepted = rows.find((row) => row.answer === "accepted");
  return {
    offers: rows.map((row) => ({
      id: row.id,
      partnerName: row.partnerName,
      offeredAt: formatTime(row.offeredAt, timeZone),
      state:
        row.answer === "accepted"
          ? "Accepted"
          : row.answer === "declined"
            ? "Declined"
            : accepted
              ? "Taken by another partner"
              : row.withdrawn
                ? "Withdrawn"
                : row.expiresAt.getTime() <= Date.now()
                  ? "Expired"
                  : "Waiting",
      answeredAt: row.answeredAt && formatTime(row.answeredAt, timeZone),
      answeredIn: took(row) ?? (accepted && row.answer === null ? "Not answered" : null),
    })),
    holder: accepted
      ? {
          partnerName: accepted.partnerName,
          business: accepted.business,
          phone: accepted.phone,
          answeredIn: took(accepted)!,
        }
      : null,
  };
}
