import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { emailOutbox } from "./schema.server.ts";
import { formatTime } from "../../lib/operator-time.ts";

/** Emails not yet sent, and "Retry now" for one of them. */

/** A page bound: more than this many unsent emails means the mail server is down, which the first rows show. */
const UNSENT_LIMIT = 200;

interface UnsentEmail {
  id: string;
  purpose: string;
  toAddress: string;
  subject: string;
  /** The contact request it belongs to, for a link to the lead page (null for opt-out emails). */
  contactRequestId: string | null;
  queuedAt: string;
  attempts: number;
  nextAttemptAt: string;
  /** Given up for good (a permanent refusal, or days of failures): only "Retry now" sends it again. */
  failed: boolean;
  lastError: string | null;
}

export async function listUnsentEmails(db: Database, timeZone: string): Promise<UnsentEmail[]> {
  const rows = await db
    .select()
    .from(emailOutbox)
    .where(isNull(emailOutbox.sentAt))
    .orderBy(asc(emailOutbox.createdAt), asc(emailOutbox.id))
    .limit(UNSENT_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    purpose: row.purpose,
    toAddress: row.toAddress,
    subject: row.subject,
    contactRequestId: row.contactRequestId,
    queuedAt: formatTime(row.createdAt, timeZone),
    attempts: row.attempts,
    nextAttemptAt: formatTime(row.nextAttemptAt, timeZone),
    failed: row.failedAt !== null,
    lastError: row.lastError,
  }));
}

/**
 * Makes an unsent email due now, one given up for good included (for one more attempt); the caller then
 * wakes the outbox worker. False when no unsent email has that id (it may have just been sent).
 */
export async function retryEmailNow(db: Database, id: string): Promise<boolean> {
  const updated = await db
    .update(emailOutbox)
    .set({ nextAttemptAt: sql`now()`, failedAt: null })
    .where(and(eq(emailOutbox.id, id), isNull(emailOutbox.sentAt)))
    .returning({ id: emailOutbox.id });
  return updated.length > 0;
}

/**
 * Emails still to send, the age in seconds of the oldest, and the number given up for good (which are not
 * waiting, so they are counted apart): what the readiness probe reports, so a monitor can alert on stuck mail.
 */
export async function emailBacklog(db: Database) {
  const [row] = await db
    .select({
      backlog: sql<number>`count(*) FILTER (WHERE ${emailOutbox.failedAt} IS NULL)`,
      failed: sql<number>`count(*) FILTER (WHERE ${emailOutbox.failedAt} IS NOT NULL)`,
      oldestSeconds: sql<
        number | null
      >`floor(extract(epoch FROM now() - min(${emailOutbox.createdAt}) FILTER (WHERE ${emailOutbox.failedAt} IS NULL)))`,
    })
    .from(emailOutbox)
    .where(isNull(emailOutbox.sentAt));
  return {
    backlog: Number(row?.backlog ?? 0),
    oldestUnsentSeconds: Math.max(0, Number(row?.oldestSeconds ?? 0)),
    failed: Number(row?.failed ?? 0),
  };
}

/** Every email not yet sent, oldest first, with its state, for `npm run leads -- outbox`. */
export function allUnsentEmails(db: Database) {
  return db.select().from(emailOutbox).where(isNull(emailOutbox.sentAt)).orderBy(asc(emailOutbox.createdAt));
}
