import { sql } from "drizzle-orm";
import { z } from "zod";
import { NOTE_MAX_LENGTH } from "~/lib/console-limits.ts";
import { LEAD_STATUSES } from "~/lib/lead-status.ts";
import { executeRows, type Database } from "../db/index.server.ts";
import { contactRequests, leadChanges } from "./schema.server.ts";
import { queueWebhooksCte } from "../webhooks/index.server.ts";
import { leadWebhookData } from "./lead-webhooks.server.ts";

/** The lead page's "Save": a new status, a note, or both, recorded with who made the change and when. */

const leadUpdateSchema = z.object({
  status: z.enum(LEAD_STATUSES, "Choose one of the statuses."),
  note: z
    .string()
    .trim()
    .max(NOTE_MAX_LENGTH, `A note can be at most ${NOTE_MAX_LENGTH.toLocaleString("en-US")} characters.`)
    .default("")
    .transform((note) => note || null),
});

type LeadUpdate = z.infer<typeof leadUpdateSchema>;

type LeadUpdateResult =
  { success: true; update: LeadUpdate } | { success: false; errors: { status?: string; note?: string } };

export function validateLeadUpdate(form: FormData): LeadUpdateResult {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const result = leadUpdateSchema.safeParse({ status: field("status"), note: field("note") });
  if (result.success) return { success: true, update: result.data };
  const errors: { status?: string; note?: string } = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0];
    if ((key === "status" || key === "note") && !errors[key]) errors[key] = issue.message;
  }
  return { success: false, errors };
}

const column = (name: { name: string }) => sql.identifier(name.name);

/**
 * `lead.updated`: the lead as it is after the change, and the change itself (`recorded`, the history's new row).
 */
const QUEUE_LEAD_UPDATED = queueWebhooksCte({
  name: "queued_webhooks",
  event: "lead.updated",
  from: "previous, recorded",
  data: `${leadWebhookData("previous", "COALESCE(recorded.status_to, previous.status)")} || jsonb_build_object(
    'change', jsonb_build_object('status_from', recorded.status_from, 'status_to', recorded.status_to,
      'note', recorded.note, 'changed_by', recorded.changed_by))`,
});

/**
 * One statement: lock the request, change its status if it differs, record the change (old and new
 * status, the note) in its history, and queue its `lead.updated` webhooks. Concurrent saves queue on the row lock,
 * so each records the status it really replaced. Returns false when no request has that id.
 */
export async function updateLead(
  db: Database,
  id: string,
  update: LeadUpdate,
  operatorEmail: string,
): Promise<boolean> {
  const status = sql`${update.status}::text`;
  const note = sql`${update.note}::text`;
  const requestId = sql`${id}::uuid`;
  const [row] = await executeRows<{ found: number }>(
    db,
    sql`
    WITH previous AS (
      SELECT * FROM ${contactRequests} WHERE ${contactRequests.id} = ${requestId} FOR UPDATE
    ),
    changed AS (
      UPDATE ${contactRequests} SET ${column(contactRequests.status)} = ${status}
      WHERE ${contactRequests.id} = ${requestId} AND ${contactRequests.status} <> ${status}
    ),
    recorded AS (
      INSERT INTO ${leadChanges} (${column(leadChanges.contactRequestId)}, ${column(leadChanges.changedBy)},
        ${column(leadChanges.statusFrom)}, ${column(leadChanges.statusTo)}, ${column(leadChanges.note)})
      SELECT ${requestId}, ${operatorEmail}::text,
        CASE WHEN previous.status <> ${status} THEN previous.status END,
        CASE WHEN previous.status <> ${status} THEN ${status} END,
        ${note}
      FROM previous WHERE previous.status <> ${status} OR ${note} IS NOT NULL
      RETURNING *
    ),
    ${sql.raw(QUEUE_LEAD_UPDATED)}
    SELECT count(*)::int AS found FROM previous`,
  );
  return (row?.found ?? 0) > 0;
}
