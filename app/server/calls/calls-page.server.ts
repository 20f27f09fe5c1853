import { sql } from "drizzle-orm";
import { readFeedPage, type Database, type FeedRequest } from "../db/index.server.ts";
import { calls } from "./schema.server.ts";

/** A page of calls for the read API, by start time: newest first, or oldest first after a row. */
export function callsPage(db: Database, request: FeedRequest) {
  return readFeedPage(db, { table: calls, time: calls.startedAt, id: calls.id }, request, (where, orderBy, limit) =>
    db
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
        referrerHost: calls.referrerHost,
        utmSource: calls.utmSource,
        utmMedium: calls.utmMedium,
        utmCampaign: calls.utmCampaign,
        utmTerm: calls.utmTerm,
        utmContent: calls.utmContent,
        gclid: calls.gclid,
        gbraid: calls.gbraid,
        wbraid: calls.wbraid,
        msclkid: calls.msclkid,
        fbclid: calls.fbclid,
        zip: calls.zip,
        service: calls.service,
        partnerId: calls.partnerId,
        billing: calls.billing,
        chargeMinor: calls.chargeMinor,
      })
      .from(calls)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
  );
}
