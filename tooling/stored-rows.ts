import { randomUUID } from "node:crypto";
import type { contactRequests } from "../app/server/leads/schema.server.ts";
import type { emailOutbox } from "../app/server/outbox/schema.server.ts";

/** Rows to insert straight into the database, for tests that need stored leads or a queued email. */

export function contactRequestRow(id: string = randomUUID()): typeof contactRequests.$inferInsert {
  return {
    id,
    firstName: "Ada",
    lastName: "Lee",
    email: "ada@example.com",
    phone: "555-123-4567",
    service: "Leak",
    message: "Help",
    consentText: "By submitting…",
    channel: "api",
  };
}

export function outboxRow(
  contactRequestId: string,
  fields: Partial<typeof emailOutbox.$inferInsert> = {},
): typeof emailOutbox.$inferInsert {
  const id = fields.id ?? randomUUID();
  return {
    id,
    contactRequestId,
    purpose: "contact_notification",
    messageId: `<${id}@example.com>`,
    toAddress: "leads@example.com",
    subject: "New lead",
    textBody: "Lead",
    htmlBody: "<p>Lead</p>",
    ...fields,
  };
}

/** The id a test gives its row number `n` (from 1). */
export const numberedId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
/** The same id in SQL, for the column `n` of a statement's rows (`generate_series(1, count) AS n`). */
export const numberedIdSql = "('00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid";

/**
 * A statement storing leads 1 to `count` in one go, each with the id `numberedId(n)` and the click id `gclid-<n>`,
 * received at `receivedAt`, an SQL expression of `n`.
 */
export function numberedLeadsWithClickIds(count: number, receivedAt: string): string {
  return `INSERT INTO contact_requests (id, first_name, last_name, email, phone, service, message, consent_text, channel,
    received_at, gclid)
  SELECT ${numberedIdSql}, 'Ada', 'Lee', 'ada' || n || '@example.com',
    '555-123-4567', 'Leak', 'Help', 'By submitting', 'api', ${receivedAt}, 'gclid-' || n
  FROM generate_series(1, ${count}) AS n`;
}
