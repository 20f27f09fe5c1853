import { sql } from "drizzle-orm";
import { readFeedPage, sqlNames, type Database, type FeedRequest } from "../db/index.server.ts";
import { contactRequests } from "./schema.server.ts";
import { doNotSellRequestedSql } from "./sharing-opt-out.server.ts";

const c = contactRequests;
const names = sqlNames(contactRequests);

/** A page of contact requests for the read API, by received time: newest first, or oldest first after a row. */
export function leadsPage(db: Database, request: FeedRequest) {
  return readFeedPage(db, { table: c, time: c.receivedAt, id: c.id }, request, (where, orderBy, limit) =>
    db
      .select({
        id: c.id,
        receivedAt: c.receivedAt,
        cursorAt: sql<string>`${c.receivedAt}::text`,
        firstName: c.firstName,
        lastName: c.lastName,
        email: c.email,
        phone: c.phone,
        service: c.service,
        message: c.message,
        status: c.status,
        zip: c.zip,
        channel: c.channel,
        globalPrivacyControl: c.globalPrivacyControl,
        doNotSell: sql<boolean>`${sql.raw(doNotSellRequestedSql(`${names.table}.${names.email}`))}`,
        landingPath: c.landingPath,
        referrerHost: c.referrerHost,
        utmSource: c.utmSource,
        utmMedium: c.utmMedium,
        utmCampaign: c.utmCampaign,
        utmTerm: c.utmTerm,
        utmContent: c.utmContent,
        gclid: c.gclid,
        gbraid: c.gbraid,
        wbraid: c.wbraid,
        msclkid: c.msclkid,
        fbclid: c.fbclid,
      })
      .from(c)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
  );
}
