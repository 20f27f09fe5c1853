import { getTableName, sql, type SQL } from "drizzle-orm";
import { executeRows, type Database } from "../db/index.server.ts";
import { leadFigures } from "./lead-day-totals.server.ts";
import { contactRequests, leadChanges } from "./schema.server.ts";
import { notOptedOutOfSharingSql } from "./sharing-opt-out.server.ts";

/**
 * What the conversions module reads of the leads: leads with ad click ids and when each was booked, a Booked
 * lead's own job value, and leads and booked jobs per source and campaign. A lead marked Spam is none of these;
 * a lead stored under Global Privacy Control has no click ids, and a lead whose person has opted out of sharing
 * (a do-not-sell request, or Global Privacy Control with any of their leads) is never sent to an ad platform.
 */

const c = contactRequests;
const h = leadChanges;

/** A lead as the ad platforms' conversion files need it. */
export interface LeadForConversions {
  id: string;
  receivedAt: Date;
  /** When its status was first set to Booked; null if it never was. */
  bookedAt: Date | null;
  jobValueCents: number | null;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  msclkid: string | null;
}

/**
 * When each lead received since `since` was first set to Booked: the time of a "Booked job" conversion. A lead is
 * booked after it arrives, so only the history since then is read (by the index of Booked changes).
 */
const firstBookedSince = (since: SQL) => sql`SELECT ${h.contactRequestId} AS id, min(${h.changedAt}) AS booked_at
  FROM ${h} WHERE ${h.statusTo} = 'Booked' AND ${h.changedAt} >= ${since} GROUP BY ${h.contactRequestId}`;

/**
 * Leads received since `since` (the ad platforms take clicks of the last 90 days) with an ad click id, in no
 * particular order. Each comes as one JSON array: a busy site has some 90,000 of them in 90 days, and one text a
 * row is far cheaper to carry out of the embedded database than eight fields.
 */
export async function leadsForConversions(db: Database, since: Date): Promise<LeadForConversions[]> {
  const rows = await executeRows<{ lead: string }>(
    db,
    sql`WITH booked AS (${firstBookedSince(sql`${since.toISOString()}::timestamptz`)})
    SELECT json_build_array(${c.id}, ${c.receivedAt}, booked.booked_at, ${c.jobValueCents},
      ${c.gclid}, ${c.gbraid}, ${c.wbraid}, ${c.msclkid})::text AS lead
    FROM ${c} LEFT JOIN booked ON booked.id = ${c.id}
    WHERE ${c.receivedAt} >= ${since.toISOString()}::timestamptz AND ${c.status} <> 'Spam'
      AND NOT ${c.globalPrivacyControl}
      AND ${sql.raw(notOptedOutOfSharingSql(`"${getTableName(c)}"."${c.email.name}"`))}
      AND coalesce(${c.gclid}, ${c.gbraid}, ${c.wbraid}, ${c.msclkid}) IS NOT NULL`,
  );
  return rows.map((row) => {
    const [id, receivedAt, bookedAt, jobValueCents, gclid, gbraid, wbraid, msclkid] = JSON.parse(row.lead) as [
      string,
      string,
      string | null,
      number | null,
      string | null,
      string | null,
      string | null,
      string | null,
    ];
    return {
      id,
      receivedAt: new Date(receivedAt),
      bookedAt: bookedAt === null ? null : new Date(bookedAt),
      jobValueCents,
      gclid,
      gbraid,
      wbraid,
      msclkid,
    };
  });
}

/**
 * Sets (or, with null, clears) a lead's job value, and records it in the lead's history with who did it, in one
 * statement. False when no lead has that id.
 */
export async function setJobValue(
  db: Database,
  id: string,
  cents: number | null,
  change: { operatorEmail: string; note: string },
): Promise<boolean> {
  const column = (name: { name: string }) => sql.identifier(name.name);
  const rows = await executeRows<{ id: string }>(
    db,
    sql`WITH valued AS (
      UPDATE ${c} SET ${column(c.jobValueCents)} = ${cents}::int WHERE ${c.id} = ${id}::uuid RETURNING ${c.id} AS id
    ),
    recorded AS (
      INSERT INTO ${h} (${column(h.contactRequestId)}, ${column(h.changedBy)}, ${column(h.note)})
      SELECT valued.id, ${change.operatorEmail}::text, ${change.note}::text FROM valued
    )
    SELECT id FROM valued`,
  );
  return rows.length > 0;
}

/** Leads received, and jobs booked, in a period for one source and campaign ("" when there is none). */
export interface LeadOutcomes {
  source: string;
  campaign: string;
  leads: number;
  booked: number;
}

/**
 * Per source (the campaign source, else the host the visit came from, as the counts name it) and campaign:
 * leads received in [startsAt, endsAt), and leads first set to Booked in it, whenever they arrived.
 */
export async function leadOutcomesBySource(db: Database, startsAt: Date, endsAt: Date): Promise<LeadOutcomes[]> {
  const outcomes = new Map<string, LeadOutcomes>();
  for (const row of await leadFigures(db, startsAt, endsAt)) {
    if (row.grouping !== 2 || (row.leadsNotSpam === 0 && row.booked === 0)) continue;
    const key = JSON.stringify([row.source, row.campaign]);
    const found = outcomes.get(key) ?? { source: row.source!, campaign: row.campaign!, leads: 0, booked: 0 };
    found.leads += row.leadsNotSpam;
    found.booked += row.booked;
    outcomes.set(key, found);
  }
  return [...outcomes.values()];
}
