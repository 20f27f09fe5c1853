import { randomUUID } from "node:crypto";
import type { Database } from "./db.server.ts";
import { contactRequests, emailOutbox, privacyRequests } from "./db-schema.server.ts";
import type { FormRateLimiter } from "./form-rate-limit.server.ts";
import { contactNotification, optOutEmails, type EmailSettings, type RenderedEmail } from "./lead-emails.server.ts";
import {
  HONEYPOT_FIELD,
  validateContactRequest,
  validateOptOutRequest,
  type ContactRequest,
  type FieldErrors,
  type LeadKind,
  type OptOutRequest,
} from "~/lib/lead-schemas.ts";

export const BODY_LIMIT_BYTES = 32 * 1024;
const DISCARD_LIMIT_BYTES = 8 * 1024 * 1024;
const OPT_OUT_DUE_DAYS = 30;
const DAY_MS = 86_400_000;

export type LeadChannel = "api" | "form";

export type LeadOutcome =
  | { status: 200; body: { ok: true; id: string } }
  | {
      status: 400 | 403 | 413 | 415 | 422 | 429 | 503;
      body: { error: string; fieldErrors: FieldErrors };
      headers?: Record<string, string>;
      /** The text fields as submitted, so a page rendered without JavaScript can show them again. */
      values?: Record<string, string>;
    };

export interface LeadSubmission {
  clientIp: string;
  channel: LeadChannel;
  /** Fixed by a page's own form; the API reads it from the body (`type: "opt-out"`, else contact). */
  kind?: LeadKind;
}

export interface LeadIntake {
  handle(request: Request, submission: LeadSubmission): Promise<LeadOutcome>;
}

export interface LeadIntakeOptions {
  db: Database;
  rateLimiter: FormRateLimiter;
  /** Other origins allowed to POST (same-origin always is). */
  allowedOrigins: string[];
  emailSettings: EmailSettings;
  /** The domain for Message-ID headers. */
  messageIdDomain: string;
  /** Called after a lead is committed, to wake the outbox worker. */
  onAccepted(): void;
}

type Rejection = Exclude<LeadOutcome, { status: 200 }>;

function reject(
  status: Rejection["status"],
  error: string,
  extra: Omit<Rejection, "status" | "body"> & { fieldErrors?: FieldErrors } = {},
): Rejection {
  const { fieldErrors = {}, ...rest } = extra;
  return { status, body: { error, fieldErrors }, ...rest };
}

const STORAGE_UNAVAILABLE =
  "We could not save your request right now. Please try again in a few minutes, or call us directly.";

/**
 * The one way a lead enters the system, for the JSON endpoint and the pages' own forms alike:
 * origin → body (type, size) → schema → honeypot → rate limit → one transaction with the request
 * and its outbox rows. Nothing answers 200 before that transaction has committed.
 */
export function createLeadIntake(options: LeadIntakeOptions): LeadIntake {
  return {
    async handle(request, submission) {
      const outcome = await intake(options, request, submission);
      // A body refused unread (wrong origin, type or declared size) is drained, so the client sees the answer.
      if (request.body && !request.body.locked) void discardRest(request.body.getReader(), 0);
      return outcome;
    },
  };
}

async function intake(options: LeadIntakeOptions, request: Request, submission: LeadSubmission): Promise<LeadOutcome> {
  if (!isAllowedOrigin(request, options.allowedOrigins)) {
    return reject(403, "Requests from other sites are not accepted.");
  }
  const parsed = await parseBody(request);
  if ("status" in parsed) return parsed;

  const { [HONEYPOT_FIELD]: honeypot, ...payload } = parsed.payload;
  const values = textValues(payload);
  if (submission.kind === "opt-out") payload.type ??= "opt-out";
  const validation = validateLead(submission.kind ?? (payload.type === "opt-out" ? "opt-out" : "contact"), payload);
  if (!validation.success) {
    const unknown = validation.unknownFields.map((field) => field.slice(0, 40)).slice(0, 5);
    const error = unknown.length
      ? `Unexpected field${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`
      : "Please correct the highlighted fields.";
    return reject(422, error, { fieldErrors: validation.fieldErrors, values });
  }
  // Bots fill in every field; people never see this one. The answer tells them nothing more.
  if (honeypot !== undefined && honeypot !== "") return reject(400, "Your request could not be accepted.");

  try {
    const limit = await options.rateLimiter.consume(`form:${submission.clientIp}`);
    if (!limit.allowed) {
      return reject(429, "Too many requests. Please try again later, or call us directly.", {
        headers: { "Retry-After": String(limit.retryAfterSeconds) },
        values,
      });
    }
    const id = await store(options, validation.lead, submission.channel);
    options.onAccepted();
    return { status: 200, body: { ok: true, id } };
  } catch (error) {
    console.error("Leads: storage failed:", error);
    return reject(503, STORAGE_UNAVAILABLE, { headers: { "Retry-After": "60" }, values });
  }
}

type ValidLead = { kind: "contact"; data: ContactRequest } | { kind: "opt-out"; data: OptOutRequest };

function validateLead(
  kind: LeadKind,
  payload: Record<string, unknown>,
): { success: true; lead: ValidLead } | { success: false; fieldErrors: FieldErrors; unknownFields: string[] } {
  if (kind === "opt-out") {
    const result = validateOptOutRequest(payload);
    return result.success ? { success: true, lead: { kind, data: result.data } } : result;
  }
  const result = validateContactRequest(payload);
  return result.success ? { success: true, lead: { kind, data: result.data } } : result;
}

/** Writes the request and its emails in one transaction; returns the request's id. */
async function store(options: LeadIntakeOptions, lead: ValidLead, channel: LeadChannel): Promise<string> {
  const id = randomUUID();
  const receivedAt = new Date();
  const outboxRow = (email: RenderedEmail) => {
    const outboxId = randomUUID();
    return {
      id: outboxId,
      contactRequestId: lead.kind === "contact" ? id : null,
      privacyRequestId: lead.kind === "opt-out" ? id : null,
      purpose: email.purpose,
      messageId: `<${outboxId}@${options.messageIdDomain}>`,
      toAddress: email.to,
      replyTo: email.replyTo,
      subject: email.subject,
      textBody: email.text,
      htmlBody: email.html,
    };
  };
  await options.db.transaction(async (tx) => {
    if (lead.kind === "contact") {
      await tx.insert(contactRequests).values({
        id,
        receivedAt,
        ...lead.data,
        consentText: options.emailSettings.consentText,
        channel,
      });
      await tx
        .insert(emailOutbox)
        .values(outboxRow(contactNotification(id, lead.data, receivedAt, options.emailSettings)));
    } else {
      const dueAt = new Date(receivedAt.getTime() + OPT_OUT_DUE_DAYS * DAY_MS);
      const { name, email, message } = lead.data;
      await tx
        .insert(privacyRequests)
        .values({ id, receivedAt, dueAt, name, email, message: message || null, channel });
      await tx
        .insert(emailOutbox)
        .values(optOutEmails(id, lead.data, receivedAt, dueAt, options.emailSettings).map(outboxRow));
    }
  });
  return id;
}

function isAllowedOrigin(request: Request, allowedOrigins: string[]): boolean {
  const origin = request.headers.get("origin");
  // Browsers send Origin with every POST; other clients (curl, server-to-server) carry no ambient credentials.
  if (origin === null) return true;
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return false;
  }
  return originUrl.host === new URL(request.url).host || allowedOrigins.includes(originUrl.origin);
}

type ParsedBody = { payload: Record<string, unknown> } | Rejection;

async function parseBody(request: Request): Promise<ParsedBody> {
  const contentType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const isJson = contentType === "application/json";
  if (!isJson && contentType !== "application/x-www-form-urlencoded") {
    return reject(415, "Send the request as application/json.");
  }
  const text = await readBodyText(request);
  if (text === "too-large") return reject(413, `The request is larger than ${BODY_LIMIT_BYTES / 1024} KB.`);
  if (text === "not-utf8") return reject(400, "The request is not valid UTF-8 text.");
  if (!isJson) return { payload: Object.fromEntries(new URLSearchParams(text)) };
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return reject(400, "The request body is not valid JSON.");
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    return reject(400, "The request body must be a JSON object.");
  }
  return { payload: payload as Record<string, unknown> };
}

/** Reads at most BODY_LIMIT_BYTES, counting bytes as they arrive: Content-Length may be absent (chunked) or wrong. */
async function readBodyText(request: Request): Promise<string | "too-large" | "not-utf8"> {
  if (Number(request.headers.get("content-length") ?? 0) > BODY_LIMIT_BYTES) return "too-large";
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > BODY_LIMIT_BYTES) {
      void discardRest(reader, total);
      return "too-large";
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return "not-utf8";
  }
}

/**
 * Cancelling the stream resets the connection, and a client still uploading would never see the 413.
 * So the rest is read and dropped in the background, up to a bound; past it, the connection is cut.
 */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<void> {
  let total = alreadyRead;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
      if (total > DISCARD_LIMIT_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away; nothing to do.
  }
}

function textValues(payload: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(payload).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}
