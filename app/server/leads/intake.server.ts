import { createHash, randomUUID } from "node:crypto";
import { takeAttribution, type LeadAttribution } from "./attribution.server.ts";
import { clientKey } from "../http/client-key.server.ts";
import { readRequestBody, type BodySource } from "../http/request-body.server.ts";
import { contactNotification, optOutEmails, type EmailSettings } from "./emails.server.ts";
import type { LeadStore, StoreResult, SubmissionKey } from "./store.server.ts";
import { log, withoutEmailAddresses } from "../log.server.ts";
import {
  HONEYPOT_FIELD,
  IDEMPOTENCY_HEADER,
  SUBMISSION_ID_FIELD,
  SUBMISSION_ID_PATTERN,
  validateContactRequest,
  validateOptOutRequest,
  type ContactRequest,
  type FieldErrors,
  type LeadKind,
  type OptOutRequest,
} from "~/lib/lead-schemas.ts";

const OPT_OUT_DUE_DAYS = 30;
const DAY_MS = 86_400_000;
/** A submission id answers repeats for a day: long enough for any retry, short enough to keep the table small. */
const SUBMISSION_ID_SECONDS = 86_400;
/**
 * A form posted without scripts from a prerendered page carries no id (static HTML cannot hold a fresh
 * one), so the same lead from the same client counts as a repeat for this long (docs/decisions/083).
 */
const SAME_LEAD_SECONDS = 15 * 60;

export type LeadChannel = "api" | "form";

export type LeadOutcome =
  | { status: 200; body: { ok: true; id: string } }
  | {
      status: 400 | 413 | 415 | 422 | 429 | 503;
      body: { error: string; fieldErrors: FieldErrors };
      headers?: Record<string, string>;
      /** The text fields as submitted, so a page rendered without JavaScript can show them again. */
      values?: Record<string, string>;
      /** The submission id the request carried, so that page sends the same one again. */
      submissionId?: string;
    };

export interface LeadSubmission {
  clientIp: string;
  channel: LeadChannel;
  /** Fixed by a page's own form; the API reads it from the body (`type: "opt-out"`, else contact). */
  kind?: LeadKind;
}

/** What the intake reads from a request, whichever server received it. */
export type LeadRequest = BodySource;

export interface LeadIntake {
  /** The JSON endpoint, served by Express directly (docs/decisions/051-lead-endpoint-on-express.md). */
  handle(request: LeadRequest, submission: LeadSubmission): Promise<LeadOutcome>;
  /** The pages' own form actions, which React Router hands a Fetch Request: the same intake. */
  handleFetch(request: Request, submission: LeadSubmission): Promise<LeadOutcome>;
}

export interface LeadIntakeOptions {
  store: LeadStore;
  emailSettings: EmailSettings;
  /** Called after a lead is committed, to wake the outbox worker and alert the operators' devices. */
  onAccepted(lead: AcceptedLead): void;
}

/** A lead just stored: what an alert about it may say (never the visitor's contact details). */
export type AcceptedLead = { kind: "contact"; id: string; service: string } | { kind: "opt-out"; id: string };

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
 * body (type, size) → schema → honeypot → one statement that counts the hit against the rate limit and,
 * within it, stores the request and its outbox rows. Nothing answers 200 before it has committed.
 * Whether the request may come from another site is decided before it gets here, by the server.
 */
export function createLeadIntake(options: LeadIntakeOptions): LeadIntake {
  const handle = (request: LeadRequest, submission: LeadSubmission) => intake(options, request, submission);
  return {
    handle,
    handleFetch: (request, submission) =>
      handle({ header: (name) => request.headers.get(name), body: request.body }, submission),
  };
}

async function intake(
  options: LeadIntakeOptions,
  request: LeadRequest,
  submission: LeadSubmission,
): Promise<LeadOutcome> {
  const parsed = await readRequestBody(request);
  if ("status" in parsed) return reject(parsed.status, parsed.error);

  // Browsers send Sec-GPC: 1 with every request when the visitor turned Global Privacy Control on.
  const globalPrivacyControl = request.header("sec-gpc")?.trim() === "1";
  // How the visitor found the site travels with the lead's fields; a bad value is dropped, never refused.
  const { attribution, rest } = takeAttribution(parsed.payload, request.header("referer"), globalPrivacyControl);
  const { [HONEYPOT_FIELD]: honeypot, [SUBMISSION_ID_FIELD]: submissionField, ...payload } = rest;
  const values = textValues(payload);
  const submissionId = request.header(IDEMPOTENCY_HEADER.toLowerCase()) ?? submissionField;
  if (submissionId !== undefined && (typeof submissionId !== "string" || !SUBMISSION_ID_PATTERN.test(submissionId))) {
    return reject(400, `The ${IDEMPOTENCY_HEADER} must be 1 to 64 letters, digits, "-" or "_".`);
  }
  if (submission.kind === "opt-out") payload.type ??= "opt-out";
  const validation = validateLead(submission.kind ?? (payload.type === "opt-out" ? "opt-out" : "contact"), payload);
  if (!validation.success) {
    const unknown = validation.unknownFields.map((field) => field.slice(0, 40)).slice(0, 5);
    const error = unknown.length
      ? `Unexpected field${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`
      : "Please correct the highlighted fields.";
    return reject(422, error, { fieldErrors: validation.fieldErrors, values, submissionId });
  }
  // Bots fill in every field; people never see this one. The answer tells them nothing more.
  if (honeypot !== undefined && honeypot !== "") return reject(400, "Your request could not be accepted.");

  const client = clientKey(submission.clientIp);
  const key = submissionKey(validation.lead, client, submissionId, submission.channel);
  let stored: StoreResult;
  try {
    stored = await store(options, { key, client, globalPrivacyControl, attribution }, validation.lead, submission);
  } catch (error) {
    // The message only: a database error's details can quote the values it was given.
    log.error(
      `leads: storage failed: ${withoutEmailAddresses(error instanceof Error ? error.message : String(error))}`,
    );
    return reject(503, STORAGE_UNAVAILABLE, { headers: { "Retry-After": "60" }, values, submissionId });
  }
  switch (stored.outcome) {
    case "limited":
      return reject(429, "Too many requests. Please try again later, or call us directly.", {
        headers: { "Retry-After": String(stored.retryAfterSeconds) },
        values,
        submissionId,
      });
    case "repeat":
      // The first answer again; nothing new is stored or mailed.
      if (stored.sameLead) return { status: 200, body: { ok: true, id: stored.id } };
      return reject(422, `This ${IDEMPOTENCY_HEADER} was already used for a different request.`, { values });
    case "stored":
      options.onAccepted(
        validation.lead.kind === "contact"
          ? { kind: "contact", id: stored.id, service: validation.lead.data.service }
          : { kind: "opt-out", id: stored.id },
      );
      return { status: 200, body: { ok: true, id: stored.id } };
  }
}

/**
 * The key a repeat of this submission is recognised by: the id it carried, or for a form posted without
 * scripts and without an id, the lead itself from this client for a short while.
 */
function submissionKey(
  lead: ValidLead,
  client: string,
  submissionId: string | undefined,
  channel: LeadChannel,
): SubmissionKey | null {
  const fingerprint = sha256(JSON.stringify([lead.kind, lead.data]));
  if (submissionId !== undefined) return { key: submissionId, fingerprint, lifetimeSeconds: SUBMISSION_ID_SECONDS };
  if (channel !== "form") return null;
  // ":" never appears in a submission id, so a derived key cannot collide with one.
  return { key: `same-lead:${sha256(`${client} ${fingerprint}`)}`, fingerprint, lifetimeSeconds: SAME_LEAD_SECONDS };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
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

/** Renders the lead's emails and stores both, unless the visitor is past the form limit. */
function store(
  options: LeadIntakeOptions,
  {
    key,
    client,
    globalPrivacyControl,
    attribution,
  }: {
    key: SubmissionKey | null;
    client: string;
    globalPrivacyControl: boolean;
    attribution: LeadAttribution;
  },
  lead: ValidLead,
  submission: LeadSubmission,
): Promise<StoreResult> {
  const id = randomUUID();
  const receivedAt = new Date();
  const limitKey = `form:${client}`;
  if (lead.kind === "contact") {
    const email = contactNotification(
      id,
      lead.data,
      receivedAt,
      options.emailSettings,
      globalPrivacyControl,
      attribution,
    );
    return options.store.storeContact(
      limitKey,
      key,
      {
        ...lead.data,
        ...attribution,
        id,
        receivedAt,
        consentText: options.emailSettings.consentText,
        channel: submission.channel,
        globalPrivacyControl,
      },
      [email],
    );
  }
  const dueAt = new Date(receivedAt.getTime() + OPT_OUT_DUE_DAYS * DAY_MS);
  const { name, email, message } = lead.data;
  const [confirmation, notification] = optOutEmails(id, lead.data, receivedAt, dueAt, options.emailSettings);
  return options.store.storeOptOut(
    limitKey,
    key,
    { id, receivedAt, dueAt, name, email, message: message || null, channel: submission.channel },
    { confirmation, notification },
  );
}

function textValues(payload: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(payload).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}
