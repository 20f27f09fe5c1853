import { sql } from "drizzle-orm";
import { readFeedPage, type Database, type FeedRequest } from "../db/index.server.ts";
import { partners, referrals } from "./schema.server.ts";

/** Partners and referral offers for the read API, by when each was added or offered (feed-page.server.ts). */

export function partnersPage(db: Database, request: FeedRequest) {
  return readFeedPage(
    db,
    { table: partners, time: partners.createdAt, id: partners.id },
    request,
    (where, orderBy, limit) =>
      db
        .select({
          id: partners.id,
          createdAt: partners.createdAt,
          cursorAt: sql<string>`${partners.createdAt}::text`,
          name: partners.name,
          business: partners.business,
          phone: partners.phone,
          email: partners.email,
          services: partners.services,
          zipCodes: partners.zipCodes,
          active: partners.active,
          pausedAt: partners.pausedAt,
          feeMinor: partners.feeMinor,
          takesCalls: partners.takesCalls,
        })
        .from(partners)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit),
  );
}

export function referralsPage(db: Database, request: FeedRequest) {
  return readFeedPage(
    db,
    { table: referrals, time: referrals.offeredAt, id: referrals.id },
    request,
    (where, orderBy, limit) =>
      db
        .select({
          id: referrals.id,
          offeredAt: referrals.offeredAt,
          cursorAt: sql<string>`${referrals.offeredAt}::text`,
          leadId: referrals.contactRequestId,
          partnerId: referrals.partnerId,
          offeredBy: referrals.offeredBy,
          expiresAt: referrals.expiresAt,
          answer: referrals.answer,
          answeredAt: referrals.answeredAt,
        })
        .from(referrals)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit),
  );
}
