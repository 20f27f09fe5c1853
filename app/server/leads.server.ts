import { randomUUID } from "node:crypto";
import type { RunStatement } from "./db.server.ts";
import { isAllowedOrigin } from "./http/origin.server.ts";
import { log, withoutEmailAddresses } from "./log.server.ts";
import { COUNT_FORM_HIT, type FormRateLimit } from "./form-rate-limit.server.ts";
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

const BODY_LIMIT_BYTES = 32 * 1024;
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

/** What the intake reads from a request, whichever server received it. */
export interface LeadRequest {
  /** A header by its lower-case name. */
  header(name: string): string | null;
  /** The host (and port) the request was addressed to, as in its URL: same-origin POSTs come from it. */
  host: string;
  body: AsyncIterable<Uint8Array> | null;
}

export interface LeadIntake {
  /** The JSON endpoint, served by Express directly (docs/decisions/051-lead-endpoint-on-express.md). */
  handle(request: LeadRequest, submission: LeadSubmission): Promise<LeadOutcome>;
  /** The pages' own form actions, which React Router hands a Fetch Request: the same intake. */
  handleFetch(request: Request, submission: LeadSubmission): Promise<LeadOutcome>;
}

export interface LeadIntakeOptions {
  run: RunStatement;
  formRateLimit: FormRateLimit;
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
 * origin → body (type, size) → schema → honeypot → one statement that counts the hit against the rate
 * limit and, within it, stores the request and its outbox rows. Nothing answers 200 before it has committed.
 */
export function createLeadIntake(options: LeadIntakeOptions): LeadIntake {
  const handle = async (request: LeadRequest, submission: LeadSubmission) => {
    const body = request.body?.[Symbol.asyncIterator]();
    const outcome = await intake(options, request, body, submission);
    // A body refused unread (wrong origin, type or declared size) is drained, so the client sees the answer.
    if (body && !bodiesRead.has(body)) void discardRest(body, 0);
    return outcome;
  };
  return {
    handle,
    handleFetch: (request, submission) =>
      handle(
        { header: (name) => request.headers.get(name), host: new URL(request.url).host, body: request.body },
        submission,
      ),
  };
}

type BodyIterator = AsyncIterator<Uint8Array>;
/** Bodies the intake has started to read; any other is drained after the answer. */
const bodiesRead = new WeakSet<BodyIterator>();

async function intake(
  options: LeadIntakeOptions,
  request: LeadRequest,
  body: BodyIterator | undefined,
  submission: LeadSubmission,
): Promise<LeadOutcome> {
  if (!isAllowedOrigin(request.header("origin"), request.host, options.allowedOrigins)) {
    return reject(403, "Requests from other sites are not accepted.");
  }
  const parsed = await parseBody(request, body);
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
    const stored = await store(options, request, validation.lead, submission);
    if (!stored.stored) {
      return reject(429, "Too many requests. Please try again later, or call us directly.", {
        headers: { "Retry-After": String(stored.retryAfterSeconds) },
        values,
      });
    }
    options.onAccepted();
    return { status: 200, body: { ok: true, id: stored.id } };
  } catch (error) {
    // The message only: a database error's details can quote the values it was given.
    log.error(
      `leads: storage failed: ${withoutEmailAddresses(error instanceof Error ? error.message : String(error))}`,
    );
    return reject(503, STORAGE_UNAVAILABLE, { headers: { "Retry-After": "60" }, values });
  }
}

type FormHit = { allowed: boolean; seconds_left: number };

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

/**
 * The outbox rows of one lead, from $4 (a JSON array of rendered emails), for the request in `lead`.
 * Selecting FROM lead means no email is queued unless the request was stored.
 */
const QUEUE_EMAILS = (requestColumn: "contact_request_id" | "privacy_request_id") => `queued AS (
  INSERT INTO email_outbox (id, ${requestColumn}, purpose, message_id, to_address, reply_to, subject, text_body, html_body)
  SELECT email.id, lead.id, email.purpose, email.message_id, email.to_address, email.reply_to, email.subject,
    email.text_body, email.html_body
  FROM lead, jsonb_to_recordset($4::jsonb) AS email(id uuid, purpose text, message_id text, to_address text,
    reply_to text, subject text, text_body text, html_body text)
)`;

/**
 * Counting the visitor's hit, storing the request and queueing its emails is ONE statement: atomic like
 * the transaction it replaces, and one round trip instead of five (docs/decisions/050-one-statement-per-lead.md).
 * Past the limit, the hit is counted and nothing else is written.
 */
const STORE_CONTACT = `WITH ${COUNT_FORM_HIT},
lead AS (
  INSERT INTO contact_requests (id, received_at, first_name, last_name, email, phone, service, message, consent_text, channel,
    global_privacy_control)
  SELECT $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15 FROM form_hit WHERE allowed
  RETURNING id
),
${QUEUE_EMAILS("contact_request_id")}
SELECT allowed, seconds_left FROM form_hit`;

const STORE_OPT_OUT = `WITH ${COUNT_FORM_HIT},
lead AS (
  INSERT INTO privacy_requests (id, received_at, due_at, name, email, message, channel)
  SELECT $5, $6, $7, $8, $9, $10, $11 FROM form_hit WHERE allowed
  RETURNING id
),
${QUEUE_EMAILS("privacy_request_id")}
SELECT allowed, seconds_left FROM form_hit`;

/** Stores the lead and its emails unless the visitor is past the form limit; returns the request's id, or the limit. */
async function store(
  options: LeadIntakeOptions,
  request: LeadRequest,
  lead: ValidLead,
  submission: LeadSubmission,
): Promise<{ stored: true; id: string } | { stored: false; retryAfterSeconds: number }> {
  const id = randomUUID();
  const receivedAt = new Date();
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
  const limitParams = options.formRateLimit.params(`form:${submission.clientIp}`);
  let hits: FormHit[];
  if (lead.kind === "contact") {
    const { firstName, lastName, email, phone, service, message } = lead.data;
    // Browsers send Sec-GPC: 1 with every request when the visitor turned Global Privacy Control on.
    const globalPrivacyControl = request.header("sec-gpc")?.trim() === "1";
    const emails = [
      outboxRow(contactNotification(id, lead.data, receivedAt, options.emailSettings, globalPrivacyControl)),
    ];
    hits = await options.run<FormHit>("store_contact", STORE_CONTACT, [
      ...limitParams,
      JSON.stringify(emails),
      id,
      receivedAt,
      firstName,
      lastName,
      email,
      phone,
      service,
      message,
      options.emailSettings.consentText,
      submission.channel,
      globalPrivacyControl,
    ]);
  } else {
    const dueAt = new Date(receivedAt.getTime() + OPT_OUT_DUE_DAYS * DAY_MS);
    const { name, email, message } = lead.data;
    const emails = optOutEmails(id, lead.data, receivedAt, dueAt, options.emailSettings).map(outboxRow);
    hits = await options.run<FormHit>("store_opt_out", STORE_OPT_OUT, [
      ...limitParams,
      JSON.stringify(emails),
      id,
      receivedAt,
      dueAt,
      name,
      email,
      message || null,
      submission.channel,
    ]);
  }
  const limit = options.formRateLimit.result(hits[0]!);
  return limit.allowed ? { stored: true, id } : { stored: false, retryAfterSeconds: limit.retryAfterSeconds };
}

type ParsedBody = { payload: Record<string, unknown> } | Rejection;

async function parseBody(request: LeadRequest, body: BodyIterator | undefined): Promise<ParsedBody> {
  const contentType = (request.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const isJson = contentType === "application/json";
  if (!isJson && contentType !== "application/x-www-form-urlencoded") {
    return reject(415, "Send the request as application/json.");
  }
  const text = await readBodyText(request, body);
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
async function readBodyText(
  request: LeadRequest,
  body: BodyIterator | undefined,
): Promise<string | "too-large" | "not-utf8"> {
  if (Number(request.header("content-length") ?? 0) > BODY_LIMIT_BYTES) return "too-large";
  if (!body) return "";
  bodiesRead.add(body);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await body.next();
    if (done) break;
    total += value.byteLength;
    if (total > BODY_LIMIT_BYTES) {
      void discardRest(body, total);
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
 * So the rest is read and dropped in the background, up to a bound; past it, the stream is cancelled.
 */
async function discardRest(body: BodyIterator, alreadyRead: number): Promise<void> {
  let total = alreadyRead;
  try {
    for (;;) {
      const { done, value } = await body.next();
      if (done) return;
      total += value.byteLength;
      if (total > DISCARD_LIMIT_BYTES) {
        await body.return?.();
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
