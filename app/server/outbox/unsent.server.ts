import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { emailOutbox, outboxMessages } from "./schema.server.ts";
import { formatTime } from "../../lib/operator-time.ts";

/**
 * What is not sent yet, for the console's outbox page: emails, and the other messages (phone alerts, texts,
 * calls to Twilio's API), each with its attempts and last error; and "Retry now" for one of them.
 */

/** A page bound per queue: more than this many unsent rows means a service is down, which the first rows show. */
const UNSENT_LIMIT = 200;

/** Which queue a row is in, as the page's "Retry now" form names it. */
export type OutboxQueue = "emails" | "messages";

/** How a row's delivery stands, whatever it carries. */
interface DeliveryState {
  id: string;
  queuedAt: string;
  attempts: number;
  nextAttemptAt: string;
  /** Given up for good (a permanent refusal, or days of failures): only "Retry now" sends it again. */
  failed: boolean;
  lastError: string | null;
}

interface UnsentEmail extends DeliveryState {
  toAddress: string;
  subject: string;
  /** The contact request it belongs to, for a link to the lead page (null for opt-out emails). */
  contactRequestId: string | null;
}

/** A message of another channel; what it carries (a device, a phone number) is not shown. */
interface UnsentMessage extends DeliveryState {
  /** "push", "sms", "twilio". */
  channel: string;
  /** What it is for, such as "new_lead_push" or "recording_deletion". */
  purpose: string;
}

type DeliveryRow = Pick<
  typeof emailOutbox.$inferSelect,
  "id" | "createdAt" | "attempts" | "nextAttemptAt" | "failedAt" | "lastError"
>;

function deliveryState(row: DeliveryRow, timeZone: string): DeliveryState {
  return {
    id: row.id,
    queuedAt: formatTime(row.createdAt, timeZone),
    attempts: row.attempts,
    nextAttemptAt: formatTime(row.nextAttemptAt, timeZone),
    failed: row.failedAt !== null,
    lastError: row.lastError,
  };
}

/** Every queue's unsent rows, oldest first. */
export async function listUnsent(
  db: Database,
  timeZone: string,
): Promise<{ emails: UnsentEmail[]; messages: UnsentMessage[] }> {
  const [emails, messages] = await Promise.all([
    db
      .select()
      .from(emailOutbox)
      .where(isNull(emailOutbox.sentAt))
      .orderBy(asc(emailOutbox.createdAt), asc(emailOutbox.id))
      .limit(UNSENT_LIMIT),
    db
      .select()
      .from(outboxMessages)
      .where(isNull(outboxMessages.sentAt))
      .orderBy(asc(outboxMessages.createdAt), asc(outboxMessages.id))
      .limit(UNSENT_LIMIT),
  ]);
  return {
    emails: emails.map((row) => ({
      ...deliveryState(row, timeZone),
      toAddress: row.toAddress,
      subject: row.subject,
      contactRequestId: row.contactRequestId,
    })),
    messages: messages.map((row) => ({
      ...deliveryState(row, timeZone),
      channel: row.channel,
      purpose: row.purpose,
    })),
  };
}

/**
 * Makes an unsent row of the queue due now, one given up for good included (for one more attempt); the caller
 * then wakes the outbox worker. False when the queue has no unsent row with that id (it may have just been sent).
 */
export async function retryNow(db: Database, queue: OutboxQueue, id: string): Promise<boolean> {
  const due = { nextAttemptAt: sql`now()`, failedAt: null };
  const updated =
    queue === "emails"
      ? await db
          .update(emailOutbox)
          .set(due)
          .where(and(eq(emailOutbox.id, id), isNull(emailOutbox.sentAt)))
          .returning({ id: emailOutbox.id })
      : await db
          .update(outboxMessages)
          .set(due)
          .where(and(eq(outboxMessages.id, id), isNull(outboxMessages.sentAt)))
          .returning({ id: outboxMessages.id });
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
