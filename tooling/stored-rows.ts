import { randomUUID } from "node:crypto";
import type { contactRequests } from "../app/server/leads/schema.server.ts";
import type { emailOutbox } from "../app/server/outbox/schema.server.ts";

/** Rows to insert straight into the database, for tests that need a stored lead or a queued email. */

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
