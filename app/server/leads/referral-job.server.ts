import { eq, sql } from "drizzle-orm";
import { type Database, sqlNames } from "../db/index.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import { contactRequests } from "./schema.server.ts";
import { doNotSellRequestedSql } from "./sharing-opt-out.server.ts";

const leads = sqlNames(contactRequests);

/** A lead as the referral module needs it: the job partners are offered, and the contact details for the one who accepts. */
export interface ReferralJob {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  service: string;
  message: string;
  zip: string | null;
  /** How the visitor found the site, as the dashboard groups it: the campaign source (else the referring host) and campaign. */
  source: string;
  campaign: string;
  /**
   * Why the visitor's information should not be shared with a partner without the operator confirming: a
   * do-not-sell request from the same email address, or Global Privacy Control sent with the lead.
   */
  optOut: "do-not-sell request" | "Global Privacy Control" | null;
}

export async function referralJob(db: Database, id: string): Promise<ReferralJob | null> {
  if (!isRowId(id)) return null;
  const [lead] = await db
    .select({
      id: contactRequests.id,
      firstName: contactRequests.firstName,
      lastName: contactRequests.lastName,
      email: contactRequests.email,
      phone: contactRequests.phone,
      service: contactRequests.service,
      message: contactRequests.message,
      zip: contactRequests.zip,
      source: sql<string>`coalesce(${contactRequests.utmSource}, ${contactRequests.referrerHost}, '')`,
      campaign: sql<string>`coalesce(${contactRequests.utmCampaign}, '')`,
      globalPrivacyControl: contactRequests.globalPrivacyControl,
      doNotSell: sql<boolean>`${sql.raw(doNotSellRequestedSql(`${leads.table}.${leads.email}`))}`,
    })
    .from(contactRequests)
    .where(eq(contactRequests.id, id));
  if (!lead) return null;
  const { globalPrivacyControl, doNotSell, ...job } = lead;
  return {
    ...job,
    optOut: doNotSell ? "do-not-sell request" : globalPrivacyControl ? "Global Privacy Control" : null,
  };
}

/**
 * SQL: the leads received with a ZIP code within the last `minutes` (an SQL expression), as `lead_id` and
 * `received_at`, read by the index of when leads arrived.
 */
export function recentLeadsWithZipSql(minutes: string): string {
  return `SELECT ${leads.id} AS lead_id, ${leads.receivedAt} AS received_at FROM ${leads.table}
    WHERE ${leads.receivedAt} > now() - ${minutes} * interval '1 minute' AND ${leads.zip} IS NOT NULL`;
}
