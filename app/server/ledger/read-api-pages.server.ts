import { sql } from "drizzle-orm";
import { readFeedPage, type Database, type FeedRequest } from "../db/index.server.ts";
import { ledgerEntries, partnerStatements } from "./schema.server.ts";

/** Ledger entries and monthly statements for the read API, by when each was recorded or issued (feed-page.server.ts). */

export function ledgerEntriesPage(db: Database, request: FeedRequest) {
  const e = ledgerEntries;
  return readFeedPage(db, { table: e, time: e.recordedAt, id: e.id }, request, (where, orderBy, limit) =>
    db
      .select({
        id: e.id,
        recordedAt: e.recordedAt,
        cursorAt: sql<string>`${e.recordedAt}::text`,
        partnerId: e.partnerId,
        kind: e.kind,
        amountMinor: e.amountMinor,
        recordedBy: e.recordedBy,
        referralId: e.referralId,
        leadId: e.leadId,
        service: e.service,
        zip: e.zip,
        occurredOn: e.occurredOn,
        method: e.method,
        reference: e.reference,
        note: e.note,
      })
      .from(e)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
  );
}

/** Statements without their CSV: the API links to it. */
export function statementsPage(db: Database, request: FeedRequest) {
  const s = partnerStatements;
  return readFeedPage(db, { table: s, time: s.issuedAt, id: s.id }, request, (where, orderBy, limit) =>
    db
      .select({
        id: s.id,
        issuedAt: s.issuedAt,
        cursorAt: sql<string>`${s.issuedAt}::text`,
        number: s.number,
        partnerId: s.partnerId,
        period: s.period,
        openingMinor: s.openingMinor,
        closingMinor: s.closingMinor,
      })
      .from(s)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
  );
}
