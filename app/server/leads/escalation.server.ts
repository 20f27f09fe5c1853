import { type RunStatement, sqlNames } from "../db/index.server.ts";
import { contactRequests } from "./schema.server.ts";

/**
 * Leads still New that no operator has opened: the alerts module escalates each once. Finding them is a
 * read; the claim is a CTE in the alert's own statement, so a lead is marked escalated exactly when its
 * alert is queued, and only one instance wins it.
 */

const leads = sqlNames(contactRequests);

/**
 * Only leads of the last day: an alert is about answering in minutes, and leads stored before alerts existed
 * (never opened, never escalated) must not all alert at once on the first start.
 */
const unescalated = (minutes: string) => `${leads.status} = 'New' AND ${leads.openedAt} IS NULL
  AND ${leads.escalatedAt} IS NULL AND ${leads.receivedAt} <= now() - ${minutes} * interval '1 minute'
  AND ${leads.receivedAt} > now() - interval '1 day'`;

/** What an alert about an unanswered lead may say: never the visitor's contact details. */
export interface UnansweredLead {
  id: string;
  service: string;
  receivedAt: Date;
}

/** Leads waiting longer than `minutes`, oldest first. */
export async function findUnansweredLeads(run: RunStatement, minutes: number, limit = 50): Promise<UnansweredLead[]> {
  const rows = await run<{ id: string; service: string; received_at: Date | string }>(
    "leads_unanswered",
    `SELECT ${leads.id} AS id, ${leads.service} AS service, ${leads.receivedAt} AS received_at FROM ${leads.table}
WHERE ${unescalated("$1")} ORDER BY ${leads.receivedAt} LIMIT $2`,
    [minutes, limit],
  );
  return rows.map((row) => ({ id: row.id, service: row.service, receivedAt: new Date(row.received_at) }));
}

/**
 * `claimed AS (UPDATE …)`: marks lead `id` escalated if it still qualifies, yielding its `id` then. The claim reads
 * that one lead by its key: its conditions are one CASE, which no index can serve. As plain conditions, with planner
 * statistics made before the day's leads arrived, the planner took the index of unanswered leads (or of statuses)
 * for a handful of rows and read every lead waiting, for each claim: 100-200 ms each on a busy year's database with
 * a day of leads unopened, lead intake waiting behind 50 of them every 30 seconds.
 */
export function claimUnansweredLeadCte({ id, minutes }: { id: string; minutes: string }): string {
  return `claimed AS (
  UPDATE ${leads.table} SET ${leads.escalatedAt} = now()
  WHERE ${leads.id} = ${id}::uuid AND CASE WHEN ${unescalated(minutes)} THEN true ELSE false END
  RETURNING ${leads.id} AS id
)`;
}
