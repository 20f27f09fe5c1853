import { randomUUID } from "node:crypto";
import { type RunStatement, sqlNames } from "../db/index.server.ts";
import { emailOutbox, outboxMessages } from "./schema.server.ts";

/**
 * Queueing: what other modules write into the outbox. Each queue is a CTE that reads its rows from one
 * JSON parameter, so a module can queue in the same statement that stores what the message is about (the
 * transactional outbox: stored and queued together, or neither), and the statement's author numbers every
 * parameter in one place.
 */

const emails = sqlNames(emailOutbox);
const messages = sqlNames(outboxMessages);

/** An email as the sender rendered it, before it is queued. */
export interface EmailToSend {
  /** What it is for, in the console's outbox list and the logs (never personal data). */
  purpose: string;
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
}

/** A message for another channel (see ChannelSender), with what its sender needs already rendered. */
export interface MessageToSend {
  channel: string;
  purpose: string;
  payload: unknown;
}

/** The JSON form of one email row; `toRequester` marks the one an opt-out's confirmation limit applies to. */
export function emailRow(email: EmailToSend, messageIdDomain: string, toRequester = false) {
  const id = randomUUID();
  return {
    id,
    purpose: email.purpose,
    message_id: `<${id}@${messageIdDomain}>`,
    to_address: email.to,
    reply_to: email.replyTo,
    subject: email.subject,
    text_body: email.text,
    html_body: email.html,
    to_requester: toRequester,
  };
}

/** The domain for Message-ID headers, from the sender's address. */
export function messageIdDomain(from: string): string {
  return /@([^>\s]+)/.exec(from)?.[1] ?? "plumbline.invalid";
}

export interface QueueEmailsOptions {
  /** The parameter holding a JSON array of emailRow() values, such as "$4". */
  rows: string;
  /** The request the emails belong to: its column, and a CTE yielding its `id` (no row there, no email). */
  request?: { column: "contact" | "privacy"; from: string };
  /** A condition on `email` (the row) that must hold for it to be queued. */
  where?: string;
}

/** `queued AS (INSERT INTO email_outbox …)`: the emails in `rows`, for use inside a WITH clause. */
export function queueEmailsCte({ rows, request, where }: QueueEmailsOptions): string {
  const requestColumn = request
    ? `${request.column === "contact" ? emails.contactRequestId : emails.privacyRequestId}, `
    : "";
  return `queued AS (
  INSERT INTO ${emails.table} (${emails.id}, ${requestColumn}${emails.purpose}, ${emails.messageId}, ${emails.toAddress},
    ${emails.replyTo}, ${emails.subject}, ${emails.textBody}, ${emails.htmlBody})
  SELECT email.id, ${request ? `${request.from}.id, ` : ""}email.purpose, email.message_id, email.to_address,
    email.reply_to, email.subject, email.text_body, email.html_body
  FROM ${request ? `${request.from}, ` : ""}jsonb_to_recordset(${rows}::jsonb) AS email(id uuid, purpose text,
    message_id text, to_address text, reply_to text, subject text, text_body text, html_body text, to_requester boolean)
  ${where ? `WHERE ${where}` : ""}
)`;
}

/** `queued_messages AS (INSERT INTO outbox_messages …)`: the messages in the JSON array parameter `rows`. */
export function queueMessagesCte({ rows, from }: { rows: string; from?: string }): string {
  return `queued_messages AS (
  INSERT INTO ${messages.table} (${messages.id}, ${messages.channel}, ${messages.purpose}, ${messages.payload})
  SELECT message.id, message.channel, message.purpose, message.payload
  FROM ${from ? `${from}, ` : ""}jsonb_to_recordset(${rows}::jsonb) AS message(id uuid, channel text, purpose text,
    payload jsonb)
)`;
}

/** The JSON form of one message row. */
export function messageRow(message: MessageToSend) {
  return { id: randomUUID(), ...message };
}

const QUEUE = `WITH ${queueEmailsCte({ rows: "$1" })}, ${queueMessagesCte({ rows: "$2" })} SELECT 1`;

/** Queues emails and messages that belong to no stored request (alerts, digests), in one statement. */
export async function queue(
  run: RunStatement,
  messageIdFrom: string,
  toQueue: { emails?: EmailToSend[]; messages?: MessageToSend[] },
): Promise<void> {
  const domain = messageIdDomain(messageIdFrom);
  await run("outbox_queue", QUEUE, [
    JSON.stringify((toQueue.emails ?? []).map((email) => emailRow(email, domain))),
    JSON.stringify((toQueue.messages ?? []).map(messageRow)),
  ]);
}
