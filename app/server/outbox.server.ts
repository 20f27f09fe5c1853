import type { RunStatement } from "./db.server.ts";
import { emailOutbox } from "./db-schema.server.ts";
import type { Mailer } from "./mail.server.ts";
import { sqlNames } from "./sql-names.server.ts";

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
/**
 * A whole send, queued behind the mailer's pooled connections included, is cut off well inside the
 * lease: the mailer's own timeouts are per phase and per idle socket, so they alone don't bound it.
 */
const SEND_TIMEOUT_MS = 60_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the mail server within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

const outbox = sqlNames(emailOutbox);

/** Claims due rows: the lease is taken by moving next_attempt_at ahead; SKIP LOCKED keeps instances apart. */
const CLAIM = `UPDATE ${outbox.table} SET ${outbox.attempts} = ${outbox.attempts} + 1,
  ${outbox.nextAttemptAt} = now() + $1 * interval '1 millisecond'
WHERE ${outbox.id} IN (
  SELECT ${outbox.id} FROM ${outbox.table} WHERE ${outbox.sentAt} IS NULL AND ${outbox.nextAttemptAt} <= now()
  ORDER BY ${outbox.nextAttemptAt} LIMIT $2 FOR UPDATE SKIP LOCKED
)
RETURNING ${outbox.id} AS id, ${outbox.purpose} AS purpose, ${outbox.messageId} AS message_id,
  ${outbox.toAddress} AS to_address, ${outbox.replyTo} AS reply_to, ${outbox.subject} AS subject,
  ${outbox.textBody} AS text_body, ${outbox.htmlBody} AS html_body, ${outbox.attempts} AS attempts`;

const MARK_SENT = `UPDATE ${outbox.table} SET ${outbox.sentAt} = now(), ${outbox.lastError} = NULL WHERE ${outbox.id} = $1`;

const RESCHEDULE = `UPDATE ${outbox.table} SET ${outbox.nextAttemptAt} = now() + $2 * interval '1 millisecond',
  ${outbox.lastError} = $3
WHERE ${outbox.id} = $1`;

interface ClaimedRow {
  id: string;
  purpose: string;
  message_id: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

export function startOutboxWorker(runStatement: RunStatement, mailer: Mailer, options: OutboxOptions): OutboxWorker {
  const batchSize = options.batchSize ?? 20;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let againWhenDone = false;

  const claimBatch = () => runStatement<ClaimedRow>("outbox_claim", CLAIM, [LEASE_MS, batchSize]);

  async function deliver(row: ClaimedRow) {
    try {
      await withTimeout(
        mailer.send({
          id: row.id,
          messageId: row.message_id,
          to: row.to_address,
          replyTo: row.reply_to,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
        }),
        SEND_TIMEOUT_MS,
      );
    } catch (error) {
      const delayMs = retryDelayMs(row.attempts, options.retryBaseMs, options.retryMaxMs);
      const reason = error instanceof Error ? error.message : String(error);
      console.warn(
        `Outbox: ${row.purpose} ${row.id} failed (attempt ${row.attempts}), retrying in ${delayMs} ms: ${reason}`,
      );
      await runStatement("outbox_reschedule", RESCHEDULE, [row.id, delayMs, reason.slice(0, 1000)]);
      return;
    }
    await runStatement("outbox_mark_sent", MARK_SENT, [row.id]);
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
