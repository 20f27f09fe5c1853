import { type RunStatement, sqlNames } from "../db/index.server.ts";
import { emailOutbox } from "./schema.server.ts";

const e = sqlNames(emailOutbox);

const PURGE = `DELETE FROM ${e.table}
WHERE ${e.purpose} = $1 AND ${e.contactRequestId} IS NULL AND ${e.privacyRequestId} IS NULL
  AND (${e.sentAt} IS NOT NULL OR ${e.failedAt} IS NOT NULL)
  AND ${e.createdAt} < now() - $2 * interval '1 day'
RETURNING 1`;

/**
 * Deletes the sent or given-up emails of one purpose that belong to no request (an alert about a call, say)
 * once they are older than the retention period of what they were about. Returns how many went.
 */
export async function purgeSettledEmails(run: RunStatement, purpose: string, olderThanDays: number): Promise<number> {
  return (await run("outbox_purge_settled", PURGE, [purpose, olderThanDays])).length;
}
