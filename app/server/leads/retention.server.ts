import { rm } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { executeRows, type Database } from "../db/index.server.ts";
import { confirmationEmailLimits, contactRequests, leadSubmissions, privacyRequests } from "./schema.server.ts";
import { deleteEmailsOfRequests, owesEmail } from "../outbox/index.server.ts";

/** The privacy policy keeps lead data at most a year. */
export const CONTACT_RETENTION_DAYS = 365;
/** The CCPA regulations (11 CCR 7101) ask for records of consumer requests for 24 months. */
const PRIVACY_RECORD_DAYS = 730;

interface PurgeOptions {
  contactRetentionDays?: number;
  /** Where emails are written as .eml files when no SMTP server is set: each goes with its lead. */
  outboxDir?: string;
  /**
   * Wait after each statement as long as it took, so that the machine's cores are free for lead intake at least
   * half the time: on PostgreSQL, whose statements otherwise run back to back on a core of their own. The embedded
   * database's statements already take turns with lead intake's on its one connection.
   */
  pausing?: boolean;
}

/**
 * Requests deleted per statement: each statement is short, so leads arriving meanwhile are never held up long. At a
 * full busy year on the embedded database a statement of 25 took 7 ms (median) and 14 ms (p95), one of 100 took
 * 14–17 ms and 37–53 ms (BENCHMARKS, "The retention purge's statements").
 */
const PURGE_BATCH = 25;

/**
 * Deletes contact requests older than the retention period and processed opt-outs older than 24 months,
 * with their emails (and their .eml files), oldest first, PURGE_BATCH of each per statement until none is left:
 * each statement atomic without a transaction, which is not safe through the embedded database's thread, and
 * short, so that lead intake goes on between them (`pausing`: and waits after each). A request with an email still
 * to send is kept until it is sent or has failed for good. Expired submission ids and daily confirmation counts go
 * too.
 */
export async function purgeExpiredLeads(
  db: Database,
  { contactRetentionDays = CONTACT_RETENTION_DAYS, outboxDir, pausing = false }: PurgeOptions = {},
): Promise<{ contacts: number; optOuts: number }> {
  const purged = { contacts: 0, optOuts: 0 };
  for (;;) {
    const startedAt = performance.now();
    const batch = await purgeBatch(db, contactRetentionDays);
    purged.contacts += batch.contacts;
    purged.optOuts += batch.opt_outs;
    if (outboxDir) {
      for (const id of batch.email_ids.split(",").filter(Boolean)) {
        await rm(join(outboxDir, `${id}.eml`), { force: true });
      }
    }
    if (batch.contacts < PURGE_BATCH && batch.opt_outs < PURGE_BATCH) return purged;
    if (pausing) await setTimeout(performance.now() - startedAt);
  }
}

async function purgeBatch(db: Database, contactRetentionDays: number) {
  type Counts = { contacts: number; opt_outs: number; email_ids: string };
  const [counts] = await executeRows<Counts>(
    db,
    sql`
    WITH old_contacts AS (
      SELECT ${contactRequests.id} AS id FROM ${contactRequests}
      WHERE ${contactRequests.receivedAt} < now() - ${contactRetentionDays} * interval '1 day'
        AND NOT ${owesEmail("contact", contactRequests.id)}
      ORDER BY ${contactRequests.receivedAt} LIMIT ${PURGE_BATCH}
    ),
    old_opt_outs AS (
      SELECT ${privacyRequests.id} AS id FROM ${privacyRequests}
      WHERE ${privacyRequests.receivedAt} < now() - ${PRIVACY_RECORD_DAYS} * interval '1 day'
        AND ${privacyRequests.completedAt} IS NOT NULL
        AND NOT ${owesEmail("privacy", privacyRequests.id)}
      ORDER BY ${privacyRequests.receivedAt} LIMIT ${PURGE_BATCH}
    ),
    emails AS (${deleteEmailsOfRequests(sql`SELECT id FROM old_contacts`, sql`SELECT id FROM old_opt_outs`)}),
    contacts AS (
      DELETE FROM ${contactRequests} WHERE ${contactRequests.id} IN (SELECT id FROM old_contacts) RETURNING 1
    ),
    opt_outs AS (
      DELETE FROM ${privacyRequests} WHERE ${privacyRequests.id} IN (SELECT id FROM old_opt_outs) RETURNING 1
    ),
    submissions AS (
      DELETE FROM ${leadSubmissions} WHERE ${leadSubmissions.expiresAt} <= now() RETURNING 1
    ),
    confirmations AS (
      DELETE FROM ${confirmationEmailLimits}
      WHERE ${confirmationEmailLimits.windowStartedAt} <= now() - interval '1 day' RETURNING 1
    )
    SELECT (SELECT count(*) FROM contacts)::int AS contacts, (SELECT count(*) FROM opt_outs)::int AS opt_outs,
      coalesce((SELECT string_agg(id::text, ',') FROM emails), '') AS email_ids`,
  );
  return counts!;
}
