/** The outbox: emails and other messages queued with what they belong to, and delivered at least once. */
export {
  startOutboxWorker,
  DeliveryRefused,
  type ChannelSender,
  type ClaimedRow,
  type DeliveryQueue,
  type OutboxWorker,
} from "./outbox.server.ts";
export {
  emailRow,
  messageIdDomain,
  messageRow,
  queue,
  queueEmailsCte,
  queueMessagesCte,
  type EmailToSend,
  type MessageToSend,
} from "./queue.server.ts";
export { createMailer } from "./mail.server.ts";
export { createIntakePressure } from "./intake-pressure.server.ts";
export { allUnsentEmails, emailBacklog, listUnsent, retryNow, type OutboxQueue } from "./unsent.server.ts";
export { deleteEmailsOfRequests, emailsOfContactRequest, owesEmail } from "./request-emails.server.ts";
export { purgeSettledEmails } from "./settled-emails.server.ts";
export { serviceForMessages, visitorTextForMessages } from "./visitor-text.server.ts";
export { mailerFromSettings, startOutbox } from "./start.server.ts";
