import { randomUUID } from "node:crypto";
import { attributionColumns } from "./analytics/lead-attribution.server.ts";
import type { RunStatement } from "./db.server.ts";
import { contactRequests, emailOutbox, privacyRequests } from "./db-schema.server.ts";
import { COUNT_FORM_HIT, type FormRateLimit } from "./form-rate-limit.server.ts";
import type { RenderedEmail } from "./lead-emails.server.ts";
import { sqlNames } from "./sql-names.server.ts";

/**
 * The lead store: counting the visitor's hit, storing the request and queueing its emails is ONE
 * statement, atomic like the transaction it replaces, and one round trip instead of five
 * (docs/decisions/050-one-statement-per-lead.md). Past the limit, the hit is counted and nothing else is written.
 */

const contacts = sqlNames(contactRequests);
const privacy = sqlNames(privacyRequests);
const outbox = sqlNames(emailOutbox);

type ContactColumn = keyof typeof contactRequests._.columns;
type PrivacyColumn = keyof typeof privacyRequests._.columns;

/** The columns a stored contact request is written with, in parameter order from $5. */
const CONTACT_COLUMNS = [
  "id",
  "receivedAt",
  "firstName",
  "lastName",
  "email",
  "phone",
  "service",
  "message",
  "consentText",
  "channel",
  "globalPrivacyControl",
  ...Object.values(attributionColumns),
] as const satisfies readonly ContactColumn[];

/** The columns a stored opt-out request is written with, in parameter order from $5. */
const OPT_OUT_COLUMNS = [
  "id",
  "receivedAt",
  "dueAt",
  "name",
  "email",
  "message",
  "channel",
] as const satisfies readonly PrivacyColumn[];

export type ContactRow = Record<(typeof CONTACT_COLUMNS)[number], unknown>;
export type OptOutRow = Record<(typeof OPT_OUT_COLUMNS)[number], unknown>;

const FIRST_LEAD_PARAM = 5;

/** `INSERT INTO table (columns) SELECT $5, $6, … FROM form_hit WHERE allowed RETURNING id`. */
function insertLead(names: { table: string } & Record<string, string>, columns: readonly string[]): string {
  const params = columns.map((_, index) => `$${FIRST_LEAD_PARAM + index}`);
  return `INSERT INTO ${names.table} (${columns.map((column) => names[column]).join(", ")})
  SELECT ${params.join(", ")} FROM form_hit WHERE allowed
  RETURNING ${names.id} AS id`;
}

/**
 * The outbox rows of one lead, from $4 (a JSON array of rendered emails), for the request in `lead`.
 * Selecting FROM lead means no email is queued unless the request was stored.
 */
function queueEmails(requestColumn: string): string {
  return `queued AS (
  INSERT INTO ${outbox.table} (${outbox.id}, ${requestColumn}, ${outbox.purpose}, ${outbox.messageId}, ${outbox.toAddress},
    ${outbox.replyTo}, ${outbox.subject}, ${outbox.textBody}, ${outbox.htmlBody})
  SELECT email.id, lead.id, email.purpose, email.message_id, email.to_address, email.reply_to, email.subject,
    email.text_body, email.html_body
  FROM lead, jsonb_to_recordset($4::jsonb) AS email(id uuid, purpose text, message_id text, to_address text,
    reply_to text, subject text, text_body text, html_body text)
)`;
}

function storeStatement(insert: string, requestColumn: string): string {
  return `WITH ${COUNT_FORM_HIT},
lead AS (
  ${insert}
),
${queueEmails(requestColumn)}
SELECT allowed, seconds_left FROM form_hit`;
}

const STORE_CONTACT = storeStatement(insertLead(contacts, CONTACT_COLUMNS), outbox.contactRequestId);
const STORE_OPT_OUT = storeStatement(insertLead(privacy, OPT_OUT_COLUMNS), outbox.privacyRequestId);

export type StoreResult = { stored: true } | { stored: false; retryAfterSeconds: number };

export interface LeadStore {
  storeContact(clientKey: string, row: ContactRow, emails: RenderedEmail[]): Promise<StoreResult>;
  storeOptOut(clientKey: string, row: OptOutRow, emails: RenderedEmail[]): Promise<StoreResult>;
}

export interface LeadStoreOptions {
  run: RunStatement;
  formRateLimit: FormRateLimit;
  /** The domain for Message-ID headers. */
  messageIdDomain: string;
}

type FormHit = { allowed: boolean; seconds_left: number };

export function createLeadStore(options: LeadStoreOptions): LeadStore {
  const outboxRow = (email: RenderedEmail) => {
    const outboxId = randomUUID();
    return {
      id: outboxId,
      purpose: email.purpose,
      message_id: `<${outboxId}@${options.messageIdDomain}>`,
      to_address: email.to,
      reply_to: email.replyTo,
      subject: email.subject,
      text_body: email.text,
      html_body: email.html,
    };
  };
  const store = async (
    name: string,
    text: string,
    columns: readonly string[],
    clientKey: string,
    row: Record<string, unknown>,
    emails: RenderedEmail[],
  ): Promise<StoreResult> => {
    const hits = await options.run<FormHit>(name, text, [
      ...options.formRateLimit.params(clientKey),
      JSON.stringify(emails.map(outboxRow)),
      ...columns.map((column) => row[column]),
    ]);
    const limit = options.formRateLimit.result(hits[0]!);
    return limit.allowed ? { stored: true } : { stored: false, retryAfterSeconds: limit.retryAfterSeconds };
  };
  return {
    storeContact: (clientKey, row, emails) =>
      store("store_contact", STORE_CONTACT, CONTACT_COLUMNS, clientKey, row, emails),
    storeOptOut: (clientKey, row, emails) =>
      store("store_opt_out", STORE_OPT_OUT, OPT_OUT_COLUMNS, clientKey, row, emails),
  };
}
