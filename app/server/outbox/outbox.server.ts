import { type RunStatement, sqlNames } from "../db/index.server.ts";
import { emailOutbox, outboxMessages } from "./schema.server.ts";
import { log, withoutEmailAddresses } from "../log.server.ts";
import type { Mailer } from "./mail.server.ts";

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
  /** The senders of messages other than email, by channel; a channel not configured has none. */
  channels?: Record<string, ChannelSender>;
  /** Other modules' own delivery tables, delivered by the same lease loop (webhook deliveries). */
  queues?: DeliveryQueue[];
}

export interface OutboxWorker {
  /**
   * Look for work now instead of at the next poll (called after something is queued): emails, other messages,
   * or both when not said. A lead wakes only the email queue, so the intake's burst costs no empty claims.
   */
  nudge(queue?: "emails" | "messages" | (string & {})): void;
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

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/** The columns every queue table has, by their SQL names: the row, its purpose, and the lease and retry bookkeeping. */
export type QueueTableNames = { table: string } & Record<
  "id" | "createdAt" | "purpose" | "attempts" | "nextAttemptAt" | "sentAt" | "failedAt" | "lastError",
  string
>;

/**
 * One queue's statements: claim, renew, mark sent, record a failure, return a row; built from its table's names.
 * With `group`, the claim leaves out the groups listed in $3 (those this worker is sending to) and returns each row's.
 */
function queueStatements(q: QueueTableNames, returning: () => string, group?: string) {
  const claimed = `${q.id} = $1 AND ${q.attempts} = $2 AND ${q.sentAt} IS NULL`;
  // $3 is a JSON array: both drivers pass it as text alike, an empty one included.
  const notBusy = group ? ` AND ${group}::text NOT IN (SELECT jsonb_array_elements_text($3::jsonb))` : "";
  const groupOf = group ? ` ${group}::text AS send_group,` : "";
  return {
    /**
     * Claims due rows: the lease is taken by moving next_attempt_at ahead; SKIP LOCKED keeps instances apart.
     * `attempts`, raised by every claim, identifies the claim: the statements below change a row only for it.
     */
    claim: `UPDATE ${q.table} SET ${q.attempts} = ${q.attempts} + 1,
  ${q.nextAttemptAt} = now() + $1 * interval '1 millisecond'
WHERE ${q.id} IN (
  SELECT ${q.id} FROM ${q.table}
  WHERE ${q.sentAt} IS NULL AND ${q.failedAt} IS NULL AND ${q.nextAttemptAt} <= now()${notBusy}
  ORDER BY ${q.nextAttemptAt} LIMIT $2 FOR UPDATE SKIP LOCKED
)
RETURNING ${q.id} AS id, ${q.purpose} AS purpose, ${q.attempts} AS attempts,${groupOf} ${returning()}`,
    renewLease: `UPDATE ${q.table} SET ${q.nextAttemptAt} = now() + $3 * interval '1 millisecond'
WHERE ${claimed} RETURNING 1 AS renewed`,
    markSent: `UPDATE ${q.table} SET ${q.sentAt} = now(), ${q.lastError} = NULL WHERE ${q.id} = $1`,
    /** A failed attempt: retried after a delay, or marked failed when $5 says so or the row is too old. */
    recordFailure: `UPDATE ${q.table} SET ${q.nextAttemptAt} = now() + $3 * interval '1 millisecond',
  ${q.lastError} = $4,
  ${q.failedAt} = CASE WHEN $5::boolean OR ${q.createdAt} <= now() - $6 * interval '1 millisecond'
    THEN now() END
WHERE ${claimed}
RETURNING ${q.failedAt} IS NOT NULL AS failed`,
    /** A send aborted before it could finish: the row goes back as it was, due now, the attempt not counted. */
    returnRow: `UPDATE ${q.table} SET ${q.attempts} = ${q.attempts} - 1, ${q.nextAttemptAt} = now()
WHERE ${claimed}`,
  };
}

export interface ClaimedRow {
  id: string;
  purpose: string;
  attempts: number;
  /** The row's group, for a queue sent group by group (DeliveryQueue.group). */
  send_group?: string;
}

interface ClaimedEmail extends ClaimedRow {
  message_id: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string;
}

interface ClaimedMessage extends ClaimedRow {
  channel: string;
  payload: unknown;
}

/** Why a send was aborted before it finished, when its row is to be returned untouched. */
class SendInterrupted extends Error {}

/**
 * Thrown by a channel's sender when the service refuses the message for good (it is tried a few times, then
 * marked failed); any other error is retried with backoff.
 */
export class DeliveryRefused extends Error {}

/** A 5xx reply: the server refuses this message for good (an unknown recipient, a message it will not take). */
function isPermanentRejection(error: unknown): boolean {
  if (error instanceof DeliveryRefused) return true;
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/**
 * Delivers one kind of queued message other than email (a text message, a push, a call to a provider's API).
 * Resolves once the service has accepted it; throws DeliveryRefused when it never will.
 */
export type ChannelSender = (payload: unknown, signal: AbortSignal) => Promise<void>;

interface Queue<Row extends ClaimedRow> {
  name: string;
  statements: ReturnType<typeof queueStatements>;
  deliver(row: Row, signal: AbortSignal): Promise<void>;
  retryDelayMs?(attempts: number, failure: unknown): number | null | undefined;
  /** Sends of one group in flight at once; all of its claimed rows when absent. */
  sendsAtOnce?: number;
  /** As DeliveryQueue.group; without it the whole queue is one group. */
  group?: string;
}

/**
 * A module's own table of deliveries, with the queue columns (QueueTableNames), delivered by the outbox's lease
 * loop like emails: claimed under a lease, never sent twice by two instances, retried after a failure.
 */
export interface DeliveryQueue<Row extends ClaimedRow = ClaimedRow> {
  /** Names the statements and what `nudge()` wakes. */
  name: string;
  names: QueueTableNames;
  /** The SQL of the other values the claim returns for `deliver`, such as `url AS url`. */
  returning: string;
  deliver(row: Row, signal: AbortSignal): Promise<void>;
  /**
   * How long to wait after `attempts` failed attempts, or null to give up now; the outbox's backoff when absent or
   * when it answers undefined.
   */
  retryDelayMs?(attempts: number, failure: unknown): number | null | undefined;
  /**
   * The SQL of a column that splits the queue into groups (a webhook's endpoint) that never wait for one another:
   * a group's rows are claimed only while none of it is in flight on this worker, sent `sendsAtOnce` at a time,
   * and another group is claimed and sent meanwhile, however long the first takes.
   */
  group?: string;
  /** Sends of one group in flight at once; all of its claimed rows when absent. */
  sendsAtOnce?: number;
}

const emailQueue = (mailer: Mailer): Queue<ClaimedEmail> => ({
  name: "outbox",
  sendsAtOnce: mailer.sendsAtOnce,
  statements: queueStatements(sqlNames(emailOutbox), () => {
    const e = sqlNames(emailOutbox);
    return `${e.messageId} AS message_id, ${e.toAddress} AS to_address, ${e.replyTo} AS reply_to,
  ${e.subject} AS subject, ${e.textBody} AS text_body, ${e.htmlBody} AS html_body`;
  }),
  deliver: (row, signal) =>
    mailer.send(
      {
        id: row.id,
        messageId: row.message_id,
        to: row.to_address,
        replyTo: row.reply_to,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
      },
      signal,
    ),
});

const messageQueue = (channels: Record<string, ChannelSender>): Queue<ClaimedMessage> => ({
  name: "messages",
  statements: queueStatements(sqlNames(outboxMessages), () => {
    const m = sqlNames(outboxMessages);
    return `${m.channel} AS channel, ${m.payload} AS payload`;
  }),
  async deliver(row, signal) {
    const send = channels[row.channel];
    // A channel switched off since the message was queued (its settings removed) is refused for good.
    if (!send) throw new DeliveryRefused(`no sender for the ${row.channel} channel is configured`);
    await send(row.payload, signal);
  },
});

export function startOutboxWorker(runStatement: RunStatement, mailer: Mailer, options: OutboxOptions): OutboxWorker {
  const inFlight = new Set<AbortController>();
  const abortSends = () => {
    for (const send of inFlight) send.abort(new SendInterrupted("the server is shutting down"));
  };
  const emails = startQueueLoop(emailQueue(mailer), runStatement, options, inFlight);
  const messages = startQueueLoop(messageQueue(options.channels ?? {}), runStatement, options, inFlight);
  const others = (options.queues ?? []).map((queue) => ({
    name: queue.name,
    loop: startQueueLoop(
      { ...queue, statements: queueStatements(queue.names, () => queue.returning, queue.group) },
      runStatement,
      options,
      inFlight,
    ),
  }));
  const loops = [emails, messages, ...others.map((other) => other.loop)];
  return {
    nudge: (queue) => {
      if (queue === undefined || queue === "emails") emails.nudge();
      if (queue === undefined || queue === "messages") messages.nudge();
      for (const other of others) if (queue === undefined || queue === other.name) other.loop.nudge();
    },
    abortSends,
    stop: async () => {
      const grace = setTimeout(abortSends, options.stopGraceMs ?? STOP_GRACE_MS);
      await Promise.all(loops.map((loop) => loop.stop()));
      clearTimeout(grace);
    },
  };
}

/**
 * `deliver` for every row, at most `atOnce` in flight, each begun when one before it has settled; resolves when
 * all have settled, with the first failure to record a row's outcome, if any.
 */
async function settleEach<Row>(rows: Row[], deliver: (row: Row) => Promise<void>, atOnce: number) {
  let next = 0;
  let unrecorded: { reason: unknown } | undefined;
  const inTurn = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      await deliver(row).catch((reason: unknown) => (unrecorded ??= { reason }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, rows.length) }, inTurn));
  return unrecorded;
}

/** Polls one queue table: claims due rows under a lease, delivers them, and records each outcome. */
function startQueueLoop<Row extends ClaimedRow>(
  queue: Queue<Row>,
  runStatement: RunStatement,
  options: OutboxOptions,
  inFlight: Set<AbortController>,
) {
  const batchSize = options.batchSize ?? 20;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  /** How often a send in flight renews its lease, and how long a row may wait its turn before it renews first. */
  const renewEveryMs = leaseMs / 4;
  const { statements } = queue;
  let stopped = false;
  let stopping: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let againWhenDone = false;

  const claimBatch = (busy: string[]) =>
    runStatement<Row>(
      `${queue.name}_claim`,
      statements.claim,
      queue.group ? [leaseMs, batchSize, JSON.stringify(busy)] : [leaseMs, batchSize],
    );

  /** Renews the row's lease while its send is in flight; aborts the send if the lease cannot be kept. */
  function keepLease(row: Row, send: AbortController) {
    let renewedAt = Date.now();
    let renewing: Promise<void> = Promise.resolve();
    const interval = setInterval(() => {
      if (Date.now() - renewedAt > leaseMs * LEASE_RENEWAL_DEADLINE) {
        send.abort(new SendInterrupted("the lease on the message could not be renewed"));
        return;
      }
      renewing = runStatement(`${queue.name}_renew_lease`, statements.renewLease, [row.id, row.attempts, leaseMs]).then(
        (renewed) => {
          if (renewed.length > 0) renewedAt = Date.now();
          else send.abort(new SendInterrupted("another worker holds the message"));
        },
        () => undefined,
      );
    }, renewEveryMs);
    return () => {
      clearInterval(interval);
      return renewing;
    };
  }

  async function deliver(row: Row, claimedAt: number) {
    // A row of the batch not yet begun when the worker stops goes back to the outbox as it was.
    if (stopped) {
      await runStatement(`${queue.name}_return_row`, statements.returnRow, [row.id, row.attempts]);
      return;
    }
    // A row that waited its turn longer renews its lease before its send begins: the lease may have run out
    // meanwhile, and a row another worker has claimed since is that worker's to send.
    if (Date.now() - claimedAt > renewEveryMs) {
      const renewed = await runStatement(`${queue.name}_renew_lease`, statements.renewLease, [
        row.id,
        row.attempts,
        leaseMs,
      ]);
      if (renewed.length === 0) return;
    }
    const send = new AbortController();
    inFlight.add(send);
    const releaseLease = keepLease(row, send);
    const limit = setTimeout(
      () => send.abort(new Error(`the send took longer than ${SEND_LIMIT_MS / 60_000} minutes`)),
      SEND_LIMIT_MS,
    );
    let failure: unknown;
    try {
      await queue.deliver(row, send.signal);
    } catch (error) {
      failure = send.signal.aborted ? send.signal.reason : error;
    } finally {
      clearTimeout(limit);
      inFlight.delete(send);
      await releaseLease();
    }
    if (failure === undefined) {
      await runStatement(`${queue.name}_mark_sent`, statements.markSent, [row.id]);
      return;
    }
    const reason = failure instanceof Error ? failure.message : String(failure);
    if (failure instanceof SendInterrupted) {
      log.warn(
        { outboxId: row.id, purpose: row.purpose },
        `outbox send returned unsent: ${withoutEmailAddresses(reason)}`,
      );
      await runStatement(`${queue.name}_return_row`, statements.returnRow, [row.id, row.attempts]);
      return;
    }
    const permanent = isPermanentRejection(failure);
    const scheduled = queue.retryDelayMs?.(row.attempts, failure);
    const delayMs = scheduled ?? retryDelayMs(row.attempts, options.retryBaseMs, options.retryMaxMs);
    const [recorded] = await runStatement<{ failed: boolean }>(
      `${queue.name}_record_failure`,
      statements.recordFailure,
      [
        row.id,
        row.attempts,
        delayMs,
        reason.slice(0, 1000),
        scheduled === null || (permanent && row.attempts >= MAX_PERMANENT_FAILURES),
        GIVE_UP_AFTER_MS,
      ],
    );
    log.warn(
      { outboxId: row.id, purpose: row.purpose, attempt: row.attempts, retryInMs: recorded?.failed ? null : delayMs },
      `${recorded?.failed ? "outbox send failed for good" : "outbox send failed"}: ${withoutEmailAddresses(reason)}`,
    );
  }

  /** The groups with sends in flight on this worker (the ungrouped queue is the one group ""), and their sends. */
  const busyGroups = new Set<string>();
  const groupsInFlight = new Set<Promise<void>>();

  /** Sends one group's claimed rows; when they have settled, the group may be claimed again. */
  function sendGroup(group: string, rows: Row[], claimedAt: number) {
    busyGroups.add(group);
    const sending = settleEach(rows, (row) => deliver(row, claimedAt), queue.sendsAtOnce ?? rows.length)
      .then((unrecorded) => {
        // The database is unreachable: the rows stay pending, and a later claim takes them again.
        if (unrecorded) log.error(`outbox: cannot record a send: ${describe(unrecorded.reason)}`);
      })
      .finally(() => {
        busyGroups.delete(group);
        groupsInFlight.delete(sending);
        run();
      });
    groupsInFlight.add(sending);
  }

  /**
   * Claims and begins sending until nothing is due but the busy groups' rows: a claim never waits for the sends
   * of an earlier one, so one group's slow sends hold up no other. The ungrouped queue's rows all wait their
   * batch: every send settles, and its row is recorded, before the next claim.
   */
  async function drain() {
    try {
      while (!stopped) {
        if (!queue.group && busyGroups.size > 0) break;
        await options.beforeClaim?.();
        if (stopped) break;
        const batch = await claimBatch([...busyGroups]);
        const claimedAt = Date.now();
        if (batch.length === 0) break;
        const byGroup = new Map<string, Row[]>();
        for (const row of batch) byGroup.set(row.send_group ?? "", [...(byGroup.get(row.send_group ?? "") ?? []), row]);
        for (const [group, rows] of byGroup) sendGroup(group, rows, claimedAt);
      }
    } catch (error) {
      // The database is unreachable: the rows stay pending, and the next poll tries again.
      log.error(`outbox: cannot read the outbox: ${describe(error)}`);
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
    stop: () =>
      (stopping ??= (async () => {
        stopped = true;
        clearTimeout(timer);
        await running;
        await Promise.all(groupsInFlight);
      })()),
  };
}
