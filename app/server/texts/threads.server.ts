import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import { LEAD_LIMITS, PHONE_SHAPE } from "~/lib/lead-schemas.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { sqlNames, type Database, type RunStatement } from "../db/index.server.ts";
import { phoneKey, phoneKeySql, type ExtraLeadColumn } from "../leads/index.server.ts";
import { textMessages, textOptOuts, type TextStatus } from "./schema.server.ts";

/** The console's view of texts: threads newest first, one thread with both directions, and what is unread. */

const t = sqlNames(textMessages);

/**
 * A customer's number as texts use it (E.164), from a number as people write it (as the contact form accepts it):
 * North American numbers with or without the leading 1, or a number already written with +; null when it cannot be
 * texted.
 */
export function customerNumber(phone: string): string | null {
  if (phone.length > LEAD_LIMITS.phone || !PHONE_SHAPE.test(phone.trim())) return null;
  const digits = phone.replace(/\D/g, "");
  if (phone.trim().startsWith("+")) return /^[1-9]\d{6,14}$/.test(digits) ? `+${digits}` : null;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith("1")) return `+${digits}`;
  return null;
}

/** A thread's console path: /admin/texts/ and the number's digits. */
export function threadPath(customer: string): string {
  return `/admin/texts/${customer.replace(/\D/g, "")}`;
}

/** How many threads the Texts page lists. */
const THREADS_SHOWN = 100;

interface ThreadSummary {
  customer: string;
  lastAt: string;
  lastBody: string;
  lastDirection: "in" | "out";
  unread: number;
}

const THREADS = `SELECT last.${t.customer} AS customer, last.${t.createdAt} AS last_at, last.${t.body} AS last_body,
  last.${t.direction} AS last_direction,
  (SELECT count(*) FROM ${t.table} unread WHERE unread.${t.customer} = last.${t.customer}
    AND unread.${t.direction} = 'in' AND unread.${t.readAt} IS NULL)::int AS unread
FROM (
  SELECT DISTINCT ON (${t.customer}) ${t.customer}, ${t.createdAt}, ${t.body}, ${t.direction}
  FROM ${t.table} ORDER BY ${t.customer}, ${t.createdAt} DESC
) AS last
ORDER BY last.${t.createdAt} DESC LIMIT $1`;

/** The newest threads, each with its last text and how many of the customer's texts are unread. */
export async function listThreads(run: RunStatement, timeZone: string): Promise<ThreadSummary[]> {
  const rows = await run<{
    customer: string;
    last_at: Date | string;
    last_body: string;
    last_direction: "in" | "out";
    unread: number;
  }>("texts_threads", THREADS, [THREADS_SHOWN]);
  return rows.map((row) => ({
    customer: row.customer,
    lastAt: formatTime(new Date(row.last_at), timeZone),
    lastBody: row.last_body,
    lastDirection: row.last_direction,
    unread: row.unread,
  }));
}

export interface ThreadText {
  id: string;
  time: string;
  direction: "in" | "out";
  body: string;
  /** Received, or the delivery state of a text sent: queued, sent, delivered or failed. */
  status: TextStatus;
  automatic: boolean;
  /** A text waiting for the end of quiet hours: when it goes. */
  waitsUntil: string | null;
}

/** The texts kept on a thread: the newest this many, shown oldest first. */
const THREAD_TEXTS = 200;

/** A customer's thread, oldest first, and whether the number replied STOP. */
export async function customerThread(db: Database, customer: string, timeZone: string) {
  const [rows, optOut] = await Promise.all([
    db
      .select()
      .from(
        db
          .select()
          .from(textMessages)
          .where(eq(textMessages.customer, customer))
          .orderBy(sql`${textMessages.createdAt} DESC`)
          .limit(THREAD_TEXTS)
          .as("newest"),
      )
      .orderBy(sql`created_at`),
    db.select({ at: textOptOuts.optedOutAt }).from(textOptOuts).where(eq(textOptOuts.number, customer)),
  ]);
  const now = Date.now();
  return {
    customer,
    optedOut: optOut.length > 0,
    texts: rows.map((row): ThreadText => ({
      id: row.id,
      time: formatTime(row.createdAt, timeZone),
      direction: row.direction,
      body: row.body,
      status: row.failedAt ? "failed" : row.status,
      automatic: row.purpose !== "operator_text" && row.direction === "out",
      waitsUntil:
        row.status === "queued" && !row.sentAt && !row.failedAt && row.nextAttemptAt.getTime() > now + 60_000
          ? formatTime(row.nextAttemptAt, timeZone)
          : null,
    })),
  };
}

export type CustomerThread = Awaited<ReturnType<typeof customerThread>>;

const o = sqlNames(textOptOuts);
const OPTED_OUT = `SELECT 1 AS opted_out FROM ${o.table} WHERE ${o.number} = $1`;

/** Whether the number replied STOP (and not START since): no text of any kind goes to it. */
export async function isOptedOut(run: RunStatement, number: string): Promise<boolean> {
  return (await run("texts_opted_out", OPTED_OUT, [number])).length > 0;
}

/** An operator opened the thread: its received texts are read. */
export async function markThreadRead(db: Database, customer: string): Promise<void> {
  await db
    .update(textMessages)
    .set({ readAt: sql`now()` })
    .where(and(eq(textMessages.customer, customer), eq(textMessages.direction, "in"), isNull(textMessages.readAt)));
}

/** Received texts no operator has opened yet, for the console's navigation. */
export async function unreadTextCount(db: Database): Promise<number> {
  const [row] = await db
    .select({ unread: count() })
    .from(textMessages)
    .where(and(eq(textMessages.direction, "in"), isNull(textMessages.readAt)));
  return row?.unread ?? 0;
}

/** The number a thread's texts go out from: the one the customer last texted or was texted from, if any. */
export async function threadNumber(db: Database, customer: string): Promise<string | null> {
  const [row] = await db
    .select({ ours: textMessages.ours })
    .from(textMessages)
    .where(eq(textMessages.customer, customer))
    .orderBy(sql`${textMessages.createdAt} DESC`)
    .limit(1);
  return row?.ours ?? null;
}

/** Numbers counted per statement for the leads CSV: about 10 ms each on the embedded database, at a year of texts. */
const COUNTED_NUMBERS_PER_STATEMENT = 1_000;

/**
 * The leads CSV's `texts` column, once the site has texted anyone: how many texts there are to and from each lead's
 * number, never what they say. Every texted number's count is read before the export, by its last 10 digits, a
 * thousand numbers a statement in their index's order, so that leads keep arriving meanwhile (all at once, a year's
 * 50,000 numbers held the embedded database for half a second). They are held while the download lasts, some 140
 * bytes a number: a count read for each lead cost the database as much again as the rest of the lead's line.
 */
export async function leadTextCountColumns(db: Database): Promise<ExtraLeadColumn[]> {
  const customerKey = phoneKeySql(textMessages.customer);
  const texts = new Map<string, number>();
  for (let after = ""; ;) {
    const counted = await db
      .select({ key: customerKey, texts: count() })
      .from(textMessages)
      .where(gt(customerKey, after))
      .groupBy(customerKey)
      .orderBy(customerKey)
      .limit(COUNTED_NUMBERS_PER_STATEMENT);
    for (const row of counted) texts.set(row.key, row.texts);
    if (counted.length < COUNTED_NUMBERS_PER_STATEMENT) break;
    after = counted.at(-1)!.key;
  }
  if (texts.size === 0) return [];
  return [{ header: "texts", cell: (phone) => String(texts.get(phoneKey(phone)) ?? 0) }];
}

/** Texts are kept as long as calls and leads: the privacy policy keeps them at most a year. */
const TEXT_RETENTION_DAYS = 365;
/** Texts deleted per statement, so texts arriving meanwhile are never held up long. */
const PURGE_BATCH = 500;

const PURGE = `WITH deleted AS (
  DELETE FROM ${t.table} WHERE ${t.id} IN (
    SELECT ${t.id} FROM ${t.table} WHERE ${t.createdAt} < now() - $1 * interval '1 day' LIMIT ${PURGE_BATCH}
  ) RETURNING 1
) SELECT count(*)::int AS deleted FROM deleted`;

/** Deletes texts older than the retention period, sent or not, a batch a statement (hourly housekeeping). */
export async function purgeExpiredTexts(run: RunStatement, retentionDays = TEXT_RETENTION_DAYS): Promise<number> {
  let purged = 0;
  for (;;) {
    const [result] = await run<{ deleted: number }>("texts_purge", PURGE, [retentionDays]);
    purged += result?.deleted ?? 0;
    if ((result?.deleted ?? 0) < PURGE_BATCH) return purged;
  }
}
