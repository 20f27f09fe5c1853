import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "./db.server.ts";
import { emailOutbox } from "./db-schema.server.ts";
import type { Mailer } from "./mail.server.ts";

export interface OutboxOptions {
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How many rows one worker claims at a time. */
  batchSize?: number;
}

export interface OutboxWorker {
  /** Look for work now instead of at the next poll (called after a lead is accepted). */
  nudge(): void;
  /** Stops polling and waits for the messages being sent to finish. */
  stop(): Promise<void>;
}

/**
 * A claimed row is leased, not held under a row lock while SMTP talks: PGlite has one connection,
 * and a slow mail server must not block accepting leads. The lease outlasts the mailer's timeouts,
 * so a crashed worker's rows come back after it and nothing is sent twice by two live workers.
 */
const LEASE_MS = 120_000;

export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

export function startOutboxWorker(db: Database, mailer: Mailer, options: OutboxOptions): OutboxWorker {
  const batchSize = options.batchSize ?? 20;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let againWhenDone = false;

  async function claimBatch() {
    const due = db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(and(isNull(emailOutbox.sentAt), lte(emailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(asc(emailOutbox.nextAttemptAt))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    return db
      .update(emailOutbox)
      .set({
        attempts: sql`${emailOutbox.attempts} + 1`,
        nextAttemptAt: sql`now() + ${LEASE_MS} * interval '1 millisecond'`,
      })
      .where(inArray(emailOutbox.id, due))
      .returning();
  }

  async function deliver(row: typeof emailOutbox.$inferSelect) {
    try {
      await mailer.send({
        id: row.id,
        messageId: row.messageId,
        to: row.toAddress,
        replyTo: row.replyTo,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
      });
    } catch (error) {
      const delayMs = retryDelayMs(row.attempts, options.retryBaseMs, options.retryMaxMs);
      const reason = error instanceof Error ? error.message : String(error);
      console.warn(
        `Outbox: ${row.purpose} ${row.id} failed (attempt ${row.attempts}), retrying in ${delayMs} ms: ${reason}`,
      );
      await db
        .update(emailOutbox)
        .set({ nextAttemptAt: sql`now() + ${delayMs} * interval '1 millisecond'`, lastError: reason.slice(0, 1000) })
        .where(eq(emailOutbox.id, row.id));
      return;
    }
    await db
      .update(emailOutbox)
      .set({ sentAt: sql`now()`, lastError: null })
      .where(eq(emailOutbox.id, row.id));
  }

  async function drain() {
    try {
      while (!stopped) {
        const batch = await claimBatch();
        if (batch.length === 0) break;
        await Promise.all(batch.map(deliver));
      }
    } catch (error) {
      // The database is unreachable: the rows stay pending, and the next poll tries again.
      console.error("Outbox: cannot read the outbox:", error instanceof Error ? error.message : error);
    }
  }

  function run() {
    if (stopped) return;
    if (running) {
      againWhenDone = true;
      return;
    }
    clearTimeout(timer);
    running = drain().finally(() => {
      running = undefined;
      if (stopped) return;
      if (againWhenDone) {
        againWhenDone = false;
        run();
      } else {
        timer = setTimeout(run, options.pollMs);
      }
    });
  }

  run();
  return {
    nudge: run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
