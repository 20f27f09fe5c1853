import { asc, eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
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

/**
 * Whether the request whose id is `requestId` (a contact request's, or an opt-out's) has an email still to send.
 * Written as `NOT IN` a list with no nulls, PostgreSQL reads the emails waiting to go once and looks each request up
 * in a hash of them. As `NOT EXISTS`, it compared every waiting email with each request in turn (the pending
 * emails' statistics say there are few), which cost the retention purge milliseconds a request once a few thousand
 * emails were waiting.
 */
export function owesEmail(kind: "contact" | "privacy", requestId: SQL | AnyColumn): SQL {
  const owner = kind === "contact" ? emailOutbox.contactRequestId : emailOutbox.privacyRequestId;
  return sql`${requestId} IN (SELECT ${owner} FROM ${emailOutbox}
    WHERE ${owner} IS NOT NULL AND ${emailOutbox.sentAt} IS NULL AND ${emailOutbox.failedAt} IS NULL)`;
}

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
