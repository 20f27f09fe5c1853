import type { RunStatement } from "../db/db.server.ts";
import { emailOutbox } from "./schema.server.ts";
import { log, withoutEmailAddresses } from "../log.server.ts";
import type { Mailer } from "./mail.server.ts";
import { sqlNames } from "../db/sql-names.server.ts";

export interface OutboxOptions {
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How many rows one worker claims at a time. */
  batchSize?: number;
  /** How long a claim holds a row before another worker may take it; renewed while its send is in flight. */
  leaseMs?: number;
  /** How long stop() lets sends in flight finish before it aborts them. */
  stopGraceMs?: number;
  /** Awaited before each claim: lets the lead intake go first during a burst (intake-pressure.server.ts). */
  beforeClaim?: () => Promise<void>;
}

export interface OutboxWorker {
  /** Look for work now instead of at the next poll (called after a lead is accepted). */
  nudge(): void;
  /**
   * Stops polling; sends in flight get the grace period to finish, then are aborted and their rows returned
   * to the outbox as they were. Resolves when every row is settled in the database.
   */
  stop(): Promise<void>;
  /** Aborts the sends in flight now (a second shutdown signal), returning their rows. */
  abortSends(): void;
}

/**
 * A claimed row is leased, not held under a row lock while SMTP talks: PGlite has one connection, and a
 * slow mail server must not block accepting leads. The lease is renewed while the send is in flight, so it
 * cannot run out under a slow server and let another worker send the message again; a worker that dies
 * stops renewing, and its rows come back after the lease (docs/decisions/081).
 */
const LEASE_MS = 120_000;
/** A send that cannot renew its lease for this share of it is aborted before another worker may claim the row. */
const LEASE_RENEWAL_DEADLINE = 0.6;
/**
 * The most one send may take in all: a server trickling its replies keeps every socket timeout from firing.
 * It is longer than RFC 5321's 10 minutes for the answer to a message, so it never cuts a send that may still complete.
 */
const SEND_LIMIT_MS = 15 * 60_000;
const STOP_GRACE_MS = 5_000;
/** A message the server refuses for good (a 5xx reply) is tried this many times, then marked failed. */
const MAX_PERMANENT_FAILURES = 3;
/** A message that keeps failing for other reasons (4xx, no connection) is given up this long after it was queued. */
const GIVE_UP_AFTER_MS = 5 * 86_400_000;

function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

const outbox = sqlNames(emailOutbox);

/**
 * Claims due rows: the lease is taken by moving next_attempt_at ahead; SKIP LOCKED keeps instances apart.
 * `attempts`, raised by every claim, identifies the claim: the statements below change a row only for it.
 */
const CLAIM = `UPDATE ${outbox.table} SET ${outbox.attempts} = ${outbox.attempts} + 1,
  ${outbox.nextAttemptAt} = now() + $1 * interval '1 millisecond'
WHERE ${outbox.id} IN (
  SELECT ${outbox.id} FROM ${outbox.table}
  WHERE ${outbox.sentAt} IS NULL AND ${outbox.failedAt} IS NULL AND ${outbox.nextAttemptAt} <= now()
  ORDER BY ${outbox.nextAttemptAt} LIMIT $2 FOR UPDATE SKIP LOCKED
)
RETURNING ${outbox.id} AS id, ${outbox.purpose} AS purpose, ${outbox.messageId} AS message_id,
  ${outbox.toAddress} AS to_address, ${outbox.replyTo} AS reply_to, ${outbox.subject} AS subject,
  ${outbox.textBody} AS text_body, ${outbox.htmlBody} AS html_body, ${outbox.attempts} AS attempts`;

const CLAIMED = `${outbox.id} = $1 AND ${outbox.attempts} = $2 AND ${outbox.sentAt} IS NULL`;

const RENEW_LEASE = `UPDATE ${outbox.table} SET ${outbox.nextAttemptAt} = now() + $3 * interval '1 millisecond'
WHERE ${CLAIMED} RETURNING 1 AS renewed`;

const MARK_SENT = `UPDATE ${outbox.table} SET ${outbox.sentAt} = now(), ${outbox.lastError} = NULL WHERE ${outbox.id} = $1`;

/** A failed attempt: retried after a delay, or marked failed when $5 says so or the row is too old. */
const RECORD_FAILURE = `UPDATE ${outbox.table} SET ${outbox.nextAttemptAt} = now() + $3 * interval '1 millisecond',
  ${outbox.lastError} = $4,
  ${outbox.failedAt} = CASE WHEN $5::boolean OR ${outbox.createdAt} <= now() - $6 * interval '1 millisecond'
    THEN now() END
WHERE ${CLAIMED}
RETURNING ${outbox.failedAt} IS NOT NULL AS failed`;

/** A send aborted before it could finish: the row goes back as it was, due now, the attempt not counted. */
const RETURN_ROW = `UPDATE ${outbox.table} SET ${outbox.attempts} = ${outbox.attempts} - 1, ${outbox.nextAttemptAt} = now()
WHERE ${CLAIMED}`;

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

/** Why a send was aborted before it finished, when its row is to be returned untouched. */
class SendInterrupted extends Error {}

/** A 5xx reply: the server refuses this message for good (an unknown recipient, a message it will not take). */
function isPermanentRejection(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

export function startOutboxWorker(runStatement: RunStatement, mailer: Mailer, options: OutboxOptions): OutboxWorker {
  const batchSize = options.batchSize ?? 20;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  let stopped = false;
  let stopping: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let againWhenDone = false;
  const inFlight = new Set<AbortController>();

  const claimBatch = () => runStatement<ClaimedRow>("outbox_claim", CLAIM, [leaseMs, batchSize]);

  /** Renews the row's lease while its send is in flight; aborts the send if the lease cannot be kept. */
  function keepLease(row: ClaimedRow, send: AbortController) {
    let renewedAt = Date.now();
    let renewing: Promise<void> = Promise.resolve();
    const interval = setInterval(() => {
      if (Date.now() - renewedAt > leaseMs * LEASE_RENEWAL_DEADLINE) {
        send.abort(new SendInterrupted("the lease on the message could not be renewed"));
        return;
      }
      renewing = runStatement("outbox_renew_lease", RENEW_LEASE, [row.id, row.attempts, leaseMs]).then(
        (renewed) => {
          if (renewed.length > 0) renewedAt = Date.now();
          else send.abort(new SendInterrupted("another worker holds the message"));
        },
        () => undefined,
      );
    }, leaseMs / 4);
    return () => {
      clearInterval(interval);
      return renewing;
    };
  }

  async function deliver(row: ClaimedRow) {
    const send = new AbortController();
    inFlight.add(send);
    const releaseLease = keepLease(row, send);
    const limit = setTimeout(
      () => send.abort(new Error(`the send took longer than ${SEND_LIMIT_MS / 60_000} minutes`)),
      SEND_LIMIT_MS,
    );
    let failure: unknown;
    try {
      await mailer.send(
        {
          id: row.id,
          messageId: row.message_id,
          to: row.to_address,
          replyTo: row.reply_to,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
        },
        send.signal,
      );
    } catch (error) {
      failure = send.signal.aborted ? send.signal.reason : error;
    } finally {
      clearTimeout(limit);
      inFlight.delete(send);
      await releaseLease();
    }
    if (failure === undefined) {
      await runStatement("outbox_mark_sent", MARK_SENT, [row.id]);
      return;
    }
    const reason = failure instanceof Error ? failure.message : String(failure);
    if (failure instanceof SendInterrupted) {
      log.warn(
        { outboxId: row.id, purpose: row.purpose },
        `outbox send returned unsent: ${withoutEmailAddresses(reason)}`,
      );
      await runStatement("outbox_return_row", RETURN_ROW, [row.id, row.attempts]);
      return;
    }
    const permanent = isPermanentRejection(failure);
    const delayMs = retryDelayMs(row.attempts, options.retryBaseMs, options.retryMaxMs);
    const [recorded] = await runStatement<{ failed: boolean }>("outbox_record_failure", RECORD_FAILURE, [
      row.id,
      row.attempts,
      delayMs,
      reason.slice(0, 1000),
      permanent && row.attempts >= MAX_PERMANENT_FAILURES,
      GIVE_UP_AFTER_MS,
    ]);
    log.warn(
      { outboxId: row.id, purpose: row.purpose, attempt: row.attempts, retryInMs: recorded?.failed ? null : delayMs },
      `${recorded?.failed ? "outbox send failed for good" : "outbox send failed"}: ${withoutEmailAddresses(reason)}`,
    );
  }

  async function drain() {
    try {
      while (!stopped) {
        await options.beforeClaim?.();
        if (stopped) break;
        const batch = await claimBatch();
        if (batch.length === 0) break;
        // Every send settles, and its row is recorded, before the next claim or a stop.
        const results = await Promise.allSettled(batch.map(deliver));
        const unrecorded = results.find((result) => result.status === "rejected");
        if (unrecorded) throw unrecorded.reason;
      }
    } catch (error) {
      // The database is unreachable: the rows stay pending, and the next poll tries again.
      log.error(`outbox: cannot read the outbox: ${error instanceof Error ? error.message : String(error)}`);
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

  function abortSends() {
    for (const send of inFlight) send.abort(new SendInterrupted("the server is shutting down"));
  }

  run();
  return {
    nudge: run,
    abortSends,
    stop: () =>
      (stopping ??= (async () => {
        stopped = true;
        clearTimeout(timer);
        const grace = setTimeout(abortSends, options.stopGraceMs ?? STOP_GRACE_MS);
        await running;
        clearTimeout(grace);
      })()),
  };
}
