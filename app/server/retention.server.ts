import { and, inArray, isNotNull, isNull, lt, notInArray, or } from "drizzle-orm";
import type { Database } from "./db.server.ts";
import { contactRequests, emailOutbox, privacyRequests, siteEventCounts } from "./db-schema.server.ts";

const DAY_MS = 86_400_000;
/** The privacy policy keeps lead data at most a year. */
export const CONTACT_RETENTION_DAYS = 365;
/** The CCPA regulations (11 CCR 7101) ask for records of consumer requests for 24 months. */
const PRIVACY_RECORD_DAYS = 730;

/**
 * Deletes contact requests older than `contactRetentionDays` and processed opt-outs older than
 * 24 months, with their sent emails, in one transaction. Requests with an email still to send are kept.
 */
export async function purgeExpiredLeads(
  db: Database,
  contactRetentionDays = CONTACT_RETENTION_DAYS,
): Promise<{ contacts: number; optOuts: number }> {
  const contactCutoff = new Date(Date.now() - contactRetentionDays * DAY_MS);
  const privacyCutoff = new Date(Date.now() - PRIVACY_RECORD_DAYS * DAY_MS);
  return db.transaction(async (tx) => {
    const unsent = (column: typeof emailOutbox.contactRequestId | typeof emailOutbox.privacyRequestId) =>
      tx
        .select({ id: column })
        .from(emailOutbox)
        .where(and(isNull(emailOutbox.sentAt), isNotNull(column)));
    const oldContacts = and(
      lt(contactRequests.receivedAt, contactCutoff),
      notInArray(contactRequests.id, unsent(emailOutbox.contactRequestId)),
    );
    const oldOptOuts = and(
      lt(privacyRequests.receivedAt, privacyCutoff),
      isNotNull(privacyRequests.completedAt),
      notInArray(privacyRequests.id, unsent(emailOutbox.privacyRequestId)),
    );
    await tx
      .delete(emailOutbox)
      .where(
        or(
          inArray(
            emailOutbox.contactRequestId,
            tx.select({ id: contactRequests.id }).from(contactRequests).where(oldContacts),
          ),
          inArray(
            emailOutbox.privacyRequestId,
            tx.select({ id: privacyRequests.id }).from(privacyRequests).where(oldOptOuts),
          ),
        ),
      );
    const contacts = await tx.delete(contactRequests).where(oldContacts).returning({ id: contactRequests.id });
    const optOuts = await tx.delete(privacyRequests).where(oldOptOuts).returning({ id: privacyRequests.id });
    return { contacts: contacts.length, optOuts: optOuts.length };
  });
}

/** Daily counts of page views and calls are kept 25 months, so each month can be compared with the year before. */
const COUNT_RETENTION_MONTHS = 25;

/** Deletes the daily counts of page views and calls older than 25 months (docs/decisions/070). */
export async function purgeExpiredCounts(db: Database, today = new Date()): Promise<void> {
  const cutoff = new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - COUNT_RETENTION_MONTHS, today.getUTCDate()),
  );
  await db.delete(siteEventCounts).where(lt(siteEventCounts.day, cutoff.toISOString().slice(0, 10)));
}
