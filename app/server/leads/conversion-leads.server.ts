import { getTableName, sql, type SQL } from "drizzle-orm";
import { batchesAfter, executeRows, type Database } from "../db/index.server.ts";
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
 * The reads below go a batch per statement, each short, so that lead intake goes on between them: a busy site has
 * some 90,000 leads with click ids and 74,000 Booked changes in 90 days, which read in one statement held the
 * embedded database, and every lead arriving, for 2 s. Each batch comes as one JSON text, far cheaper to carry out of
 * the embedded database than a row of fields each.
 */
const BOOKED_CHANGES_BATCH = 2_000;
const CONVERSION_LEADS_BATCH = 400;

/** A statement's rows as one JSON array of arrays (`rows`, null when there are none). */
async function jsonBatch<Cells>(db: Database, query: SQL): Promise<Cells[]> {
  const [batch] = await executeRows<{ rows: string | null }>(db, query);
  return batch?.rows ? (JSON.parse(batch.rows) as Cells[]) : [];
}

/**
 * When each lead received since `since` was first set to Booked: the time of a "Booked job" conversion. A lead is
 * booked after it arrives, so only the history since then is read (by the index of Booked changes), oldest first,
 * each batch after the last change of the one before (its time to the microsecond, then its id).
 */
async function firstBookedSince(db: Database, since: Date): Promise<Map<string, Date>> {
  type ChangeCells = [lead: string, changedAt: string, id: string];
  const readBatch = (after?: ChangeCells) =>
    jsonBatch<ChangeCells>(
      db,
      sql`SELECT json_agg(json_build_array(lead, changed_at, id) ORDER BY changed_at, id)::text AS rows FROM (
        SELECT ${h.contactRequestId} AS lead, ${h.changedAt} AS changed_at, ${h.id} AS id FROM ${h}
        WHERE ${h.statusTo} = 'Booked' AND ${h.changedAt} >= ${since.toISOString()}::timestamptz
          ${after ? sql`AND (${h.changedAt}, ${h.id}) > (${after[1]}::timestamptz, ${after[2]}::uuid)` : sql``}
        ORDER BY ${h.changedAt}, ${h.id} LIMIT ${BOOKED_CHANGES_BATCH}) AS batch`,
    );
  const booked = new Map<string, Date>();
  for await (const batch of batchesAfter(readBatch, BOOKED_CHANGES_BATCH, (last) => last)) {
    for (const [lead, changedAt] of batch) if (!booked.has(lead)) booked.set(lead, new Date(changedAt));
  }
  return booked;
}

/**
 * Leads received since `since` (the ad platforms take clicks of the last 90 days) with an ad click id, oldest first,
 * each batch after the last lead of the one before (its received time to the microsecond, then its id).
 */
export async function leadsForConversions(db: Database, since: Date): Promise<LeadForConversions[]> {
  type LeadCells = [
    id: string,
    receivedAt: string,
    jobValueCents: number | null,
    gclid: string | null,
    gbraid: string | null,
    wbraid: string | null,
    msclkid: string | null,
  ];
  const readBatch = (after?: LeadCells) =>
    jsonBatch<LeadCells>(
      db,
      sql`SELECT json_agg(json_build_array(id, received_at, job_value_cents, gclid, gbraid, wbraid, msclkid)
        ORDER BY received_at, id)::text AS rows FROM (
        SELECT ${c.id} AS id, ${c.receivedAt} AS received_at, ${c.jobValueCents} AS job_value_cents,
          ${c.gclid} AS gclid, ${c.gbraid} AS gbraid, ${c.wbraid} AS wbraid, ${c.msclkid} AS msclkid
        FROM ${c}
        WHERE ${c.receivedAt} >= ${since.toISOString()}::timestamptz
          ${after ? sql`AND (${c.receivedAt}, ${c.id}) > (${after[1]}::timestamptz, ${after[0]}::uuid)` : sql``}
          AND ${c.status} <> 'Spam' AND NOT ${c.globalPrivacyControl}
          AND coalesce(${c.gclid}, ${c.gbraid}, ${c.wbraid}, ${c.msclkid}) IS NOT NULL
          AND ${sql.raw(notOptedOutOfSharingSql(`"${getTableName(c)}"."${c.email.name}"`))}
        ORDER BY ${c.receivedAt}, ${c.id} LIMIT ${CONVERSION_LEADS_BATCH}) AS batch`,
    );
  const booked = await firstBookedSince(db, since);
  const leads: LeadForConversions[] = [];
  for await (const batch of batchesAfter(readBatch, CONVERSION_LEADS_BATCH, (last) => last)) {
    for (const [id, receivedAt, jobValueCents, gclid, gbraid, wbraid, msclkid] of batch) {
      const bookedAt = booked.get(id) ?? null;
      leads.push({ id, receivedAt: new Date(receivedAt), bookedAt, jobValueCents, gclid, gbraid, wbraid, msclkid });
    }
  }
  return leads;
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
export async function leadOutcomesBySource(
  db: Database,
  startsAt: Date,
  endsAt: Date,
  timeZone: string,
): Promise<LeadOutcomes[]> {
  const outcomes = new Map<string, LeadOutcomes>();
  for (const row of await leadFigures(db, startsAt, endsAt, timeZone)) {
    if (row.grouping !== 2 || (row.leadsNotSpam === 0 && row.booked === 0)) continue;
    const key = JSON.stringify([row.source, row.campaign]);
    const found = outcomes.get(key) ?? { source: row.source!, campaign: row.campaign!, leads: 0, booked: 0 };
    found.leads += row.leadsNotSpam;
    found.booked += row.booked;
    outcomes.set(key, found);
  }
  return [...outcomes.values()];
}
