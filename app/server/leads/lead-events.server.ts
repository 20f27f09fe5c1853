import { sqlNames } from "../db/index.server.ts";
import { leadChanges } from "./schema.server.ts";

/**
 * Events other modules record in a lead's history (a referral offered, accepted, declined or expired), in
 * the same statement as what happened: a CTE that reads its rows from one JSON parameter.
 */

const changes = sqlNames(leadChanges);

/** One history entry: the lead, who or what it came from (a partner's name, "Referrals"), and what happened. */
export interface LeadEvent {
  leadId: string;
  by: string;
  note: string;
}

/** The JSON form of the events, for the `rows` parameter. */
export function leadEventRows(events: LeadEvent[]): string {
  return JSON.stringify(events.map((event) => ({ lead_id: event.leadId, by: event.by, note: event.note })));
}

/**
 * `<name> AS (INSERT INTO lead_changes …)`: the events in `rows`, only for leads in `when` (a CTE yielding
 * `lead_id`) when given, so an event is recorded only if what it records happened.
 */
export function recordLeadEventsCte({ name, rows, when }: { name: string; rows: string; when?: string }): string {
  return `${name} AS (
  INSERT INTO ${changes.table} (${changes.contactRequestId}, ${changes.changedBy}, ${changes.note})
  SELECT event.lead_id, event.by, event.note
  FROM jsonb_to_recordset(${rows}::jsonb) AS event(lead_id uuid, by text, note text)
  ${when ? `WHERE event.lead_id IN (SELECT lead_id FROM ${when})` : ""}
)`;
}
