import { sql } from "drizzle-orm";
import type { Database } from "./db.server.ts";
import { contactRequests, emailOutbox, privacyRequests } from "./db-schema.server.ts";

const DAY_MS = 86_400_000;
/** The privacy policy keeps lead data at most a year. */
export const CONTACT_RETENTION_DAYS = 365;
/** The CCPA regulations (11 CCR 7101) ask for records of consumer requests for 24 months. */
const PRIVACY_RECORD_DAYS = 730;

/**
 * Deletes contact requests older than `contactRetentionDays` and processed opt-outs older than
 * 24 months, with their sent emails. Requests with an email still to send are kept. One statement, so
 * it is atomic without a transaction (transactions are not safe through the embedded database's thread);
 * the foreign keys are checked at its end, once the emails and their requests are all gone.
 */
export async function purgeExpiredLeads(
  db: Database,
  contactRetentionDays = CONTACT_RETENTION_DAYS,
): Promise<{ contacts: number; optOuts: number }> {
  const contactCutoff = new Date(Date.now() - contactRetentionDays * DAY_MS).toISOString();
  const privacyCutoff = new Date(Date.now() - PRIVACY_RECORD_DAYS * DAY_MS).toISOString();
  const outbox = emailOutbox;
  const result = await db.execute(sql`
    WITH old_contacts AS (
      SELECT ${contactRequests.id} AS id FROM ${contactRequests}
      WHERE ${contactRequests.receivedAt} < ${contactCutoff}
        AND ${contactRequests.id} NOT IN (
          SELECT ${outbox.contactRequestId} FROM ${outbox}
          WHERE ${outbox.sentAt} IS NULL AND ${outbox.contactRequestId} IS NOT NULL
        )
    ), old_opt_outs AS (
      SELECT ${privacyRequests.id} AS id FROM ${privacyRequests}
      WHERE ${privacyRequests.receivedAt} < ${privacyCutoff} AND ${privacyRequests.completedAt} IS NOT NULL
        AND ${privacyRequests.id} NOT IN (
          SELECT ${outbox.privacyRequestId} FROM ${outbox}
          WHERE ${outbox.sentAt} IS NULL AND ${outbox.privacyRequestId} IS NOT NULL
        )
    ), emails AS (
      DELETE FROM ${outbox}
      WHERE ${outbox.contactRequestId} IN (SELECT id FROM old_contacts)
         OR ${outbox.privacyRequestId} IN (SELECT id FROM old_opt_outs)
    ), contacts AS (
      DELETE FROM ${contactRequests} WHERE ${contactRequests.id} IN (SELECT id FROM old_contacts) RETURNING 1
    ), opt_outs AS (
      DELETE FROM ${privacyRequests} WHERE ${privacyRequests.id} IN (SELECT id FROM old_opt_outs) RETURNING 1
    )
    SELECT (SELECT count(*) FROM contacts) AS contacts, (SELECT count(*) FROM opt_outs) AS opt_outs`);
  // drizzle's node-postgres driver answers with a QueryResult, its proxy driver (PGlite) with the rows.
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    contacts: string | number;
    opt_outs: string | number;
  }[];
  return { contacts: Number(rows[0]!.contacts), optOuts: Number(rows[0]!.opt_outs) };
}
