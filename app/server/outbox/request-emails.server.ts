import { asc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { emailOutbox } from "./schema.server.ts";

/**
 * The emails that belong to a request: listed on its page in the console, and deleted with it by the
 * retention purge, in the purge's own statement.
 */

/** Every email queued for a contact request, oldest first. */
export function emailsOfContactRequest(db: Database, contactRequestId: string) {
  return db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.contactRequestId, contactRequestId))
    .orderBy(asc(emailOutbox.createdAt));
}

/** A query yielding `contact_id` and `privacy_id` of every request with an email still to send. */
export const requestsOwedEmail: SQL = sql`
  SELECT ${emailOutbox.contactRequestId} AS contact_id, ${emailOutbox.privacyRequestId} AS privacy_id
  FROM ${emailOutbox} WHERE ${emailOutbox.sentAt} IS NULL AND ${emailOutbox.failedAt} IS NULL`;

/**
 * Deletes the emails of the contact requests whose ids `contactIds` yields and of the opt-outs whose ids
 * `privacyIds` yields, returning each deleted email's `id` (its .eml file goes too). Each kind of request finds its
 * emails by its own index (one condition with OR would read every email).
 */
export function deleteEmailsOfRequests(contactIds: SQL, privacyIds: SQL): SQL {
  return sql`
  DELETE FROM ${emailOutbox}
  WHERE ${emailOutbox.id} IN (
    SELECT owned.id FROM ${emailOutbox} AS owned WHERE owned.contact_request_id IN (${contactIds})
    UNION ALL
    SELECT owned.id FROM ${emailOutbox} AS owned WHERE owned.privacy_request_id IN (${privacyIds})
  )
  RETURNING ${emailOutbox.id} AS id`;
}
