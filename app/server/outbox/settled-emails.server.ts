import { type RunStatement, sqlNames } from "../db/index.server.ts";
import { emailOutbox } from "./schema.server.ts";

const e = sqlNames(emailOutbox);

/** Emails deleted per statement: each statement is short, so leads arriving meanwhile are never held up long. */
const PURGE_BATCH = 500;

// The emails that belong to no request are read by age through their own index, not among every lead's emails.
const PURGE = `DELETE FROM ${e.table} WHERE ${e.id} IN (
  SELECT ${e.id} FROM ${e.table}
  WHERE ${e.contactRequestId} IS NULL AND ${e.privacyRequestId} IS NULL
    AND ${e.createdAt} < now() - $2 * interval '1 day'
    AND ${e.purpose} = $1 AND (${e.sentAt} IS NOT NULL OR ${e.failedAt} IS NOT NULL)
  ORDER BY ${e.createdAt} LIMIT ${PURGE_BATCH}
) RETURNING 1`;

/**
 * Deletes the sent or given-up emails of one purpose that belong to no request (an alert about a call, say)
 * once they are older than the retention period of what they were about, oldest first and PURGE_BATCH a statement.
 * Returns how many went.
 */
export async function purgeSettledEmails(run: RunStatement, purpose: string, olderThanDays: number): Promise<number> {
  let purged = 0;
  for (;;) {
    const deleted = (await run("outbox_purge_settled", PURGE, [purpose, olderThanDays])).length;
    purged += deleted;
    if (deleted < PURGE_BATCH) return purged;
  }
}
