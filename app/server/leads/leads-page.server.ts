import { and, asc, gte, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { contactRequests } from "./schema.server.ts";

/**
 * Where a page of the read API starts: after the last row of the page before, by its time (as the database wrote
 * it, to the microsecond: a millisecond cursor would repeat or skip rows) and then its id.
 */
export interface PageAfter {
  at: string;
  id: string;
}

/** Contact requests received since `since`, oldest first, `limit` of them after `after`: a keyset page. */
export function leadsPage(db: Database, query: { since: Date | null; after: PageAfter | null; limit: number }) {
  const c = contactRequests;
  const conditions: SQL[] = [];
  if (query.since) conditions.push(gte(c.receivedAt, query.since));
  if (query.after)
    conditions.push(sql`(${c.receivedAt}, ${c.id}) > (${query.after.at}::timestamptz, ${query.after.id}::uuid)`);
  return db
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
      landingPath: c.landingPath,
      referrerHost: c.referrerHost,
      utmSource: c.utmSource,
      utmMedium: c.utmMedium,
      utmCampaign: c.utmCampaign,
      utmTerm: c.utmTerm,
      utmContent: c.utmContent,
      gclid: c.gclid,
      msclkid: c.msclkid,
    })
    .from(c)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(c.receivedAt), asc(c.id))
    .limit(query.limit);
}
