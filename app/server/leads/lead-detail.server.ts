import { desc, eq } from "drizzle-orm";
import type { LeadStatus } from "~/lib/lead-status.ts";
import type { Database } from "../db/index.server.ts";
import { contactRequests, leadChanges } from "./schema.server.ts";
import { emailsOfContactRequest } from "../outbox/index.server.ts";
import { describeAttribution } from "./attribution.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import { formatTime } from "../../lib/operator-time.ts";

/** One contact request as the lead page shows it: what the visitor sent, its emails and its history. */

/** Changes shown on the lead page, newest first. */
const HISTORY_LIMIT = 50;

interface LeadEmail {
  id: string;
  purpose: string;
  toAddress: string;
  subject: string;
  queuedAt: string;
  /** When it was handed to the mail server, or null while it waits. */
  sentAt: string | null;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
}

interface LeadChange {
  id: string;
  changedAt: string;
  changedBy: string;
  statusFrom: LeadStatus | null;
  statusTo: LeadStatus | null;
  note: string | null;
}

interface LeadDetail {
  id: string;
  receivedAt: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  service: string;
  message: string;
  consentText: string;
  channel: string;
  globalPrivacyControl: boolean;
  status: LeadStatus;
  /** The visitor's ZIP code, when the operator has filled it in. */
  zip: string | null;
  /** What the booked job is worth, in cents; null: the "Booked job" action's default value. */
  jobValueCents: number | null;
  /** How the visitor found the site: label/value pairs of what is known (docs/decisions/070). */
  attribution: [label: string, value: string][];
  emails: LeadEmail[];
  history: LeadChange[];
}

export async function leadDetail(db: Database, id: string, timeZone: string): Promise<LeadDetail | null> {
  if (!isRowId(id)) return null;
  const [lead] = await db.select().from(contactRequests).where(eq(contactRequests.id, id));
  if (!lead) return null;
  const [emails, history] = await Promise.all([
    emailsOfContactRequest(db, id),
    db
      .select()
      .from(leadChanges)
      .where(eq(leadChanges.contactRequestId, id))
      .orderBy(desc(leadChanges.changedAt), desc(leadChanges.id))
      .limit(HISTORY_LIMIT),
  ]);
  const time = (instant: Date) => formatTime(instant, timeZone);
  return {
    ...lead,
    receivedAt: time(lead.receivedAt),
    attribution: describeAttribution(lead),
    emails: emails.map((email) => ({
      id: email.id,
      purpose: email.purpose,
      toAddress: email.toAddress,
      subject: email.subject,
      queuedAt: time(email.createdAt),
      sentAt: email.sentAt && time(email.sentAt),
      attempts: email.attempts,
      nextAttemptAt: time(email.nextAttemptAt),
      lastError: email.lastError,
    })),
    history: history.map((change) => ({
      id: change.id,
      changedAt: time(change.changedAt),
      changedBy: change.changedBy,
      statusFrom: change.statusFrom,
      statusTo: change.statusTo,
      note: change.note,
    })),
  };
}
