import { createHash, randomUUID } from "node:crypto";
import { takeAttribution, type LeadAttribution } from "./attribution.server.ts";
import { contactNotification, optOutEmails, type EmailSettings } from "./emails.server.ts";
import { optOutDueAt } from "./opt-outs.server.ts";
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

/** A submission id answers repeats for a day: long enough for any retry, short enough to keep the table small. */
const SUBMISSION_ID_SECONDS = 86_400;
/**
 * A form posted without scripts from a prerendered page carries no id (static HTML cannot hold a fresh
 * one), so the same lead from the same client counts as a repeat for this long (docs/decisions/083).
 */
const SAME_LEAD_SECONDS = 15 * 60;

export type LeadChannel = "api" | "form";

/** A submission as the edge read it: the parsed fields and what its headers said, no HTTP left. */
export interface LeadInput {
  /** The body's fields, from JSON or a form. */
  fields: Record<string, unknown>;
  /** The client's rate-limit key (its address, or its /64 for IPv6). */
  client: string;
  channel: LeadChannel;
  /** Fixed by a page's own form; the API reads it from the body (`type: "opt-out"`, else contact). */
  kind?: LeadKind;
  /** The browser sent Global Privacy Control (Sec-GPC: 1). */
  globalPrivacyControl: boolean;
  /** The Referer header: where a form posted without scripts says the visitor was. */
  referer: string | null;
  /** The Idempotency-Key header, when the client sent one (forms send the id as a field instead). */
  idempotencyKey: string | null;
}

/** What is kept of a submission that was not stored, so a page rendered without JavaScript can show it again. */
interface Resubmittable {
  /** The text fields as submitted. */
  values: Record<string, string>;
  /** The submission id it carried, so that page sends the same one again. */
  submissionId?: string;
}

export type LeadOutcome =
  | { outcome: "stored"; id: string }
  /** The same lead under a submission id already used: the first answer again, nothing new stored or mailed. */
  | { outcome: "repeat"; id: string }
  | ({
      outcome: "invalid";
      /** Which check failed: the fields, the submission id's form, or an id already used for another lead. */
      reason: "fields" | "submission-id" | "reused-submission-id";
      message: string;
      fieldErrors: FieldErrors;
    } & Resubmittable)
  /** A bot filled in the field people never see; the answer tells it nothing more. */
  | { outcome: "refused"; message: string }
  | ({ outcome: "limited"; retryAfterSeconds: number; message: string } & Resubmittable)
  | ({ outcome: "unavailable"; message: string } & Resubmittable);

export interface LeadIntake {
  /** The one way a lead enters the system, for the JSON endpoint and the pages' own forms alike. */
  submit(input: LeadInput): Promise<LeadOutcome>;
}

export interface LeadIntakeOptions {
  store: LeadStore;
  emailSettings: EmailSettings;
  /** Called after a lead is committed, to wake the outbox worker and alert the operators' devices. */
  onAccepted(lead: AcceptedLead): void;
}

/** A lead just stored: what an alert about it may say (never the visitor's contact details). */
export type AcceptedLead =
  /** `webhooks`: webhook deliveries were queued with it; `zip`: the visitor gave a ZIP code. */
  { kind: "contact"; id: string; service: string; webhooks: boolean; zip: boolean } | { kind: "opt-out"; id: string };

const STORAGE_UNAVAILABLE =
  "We could not save your request right now. Please try again in a few minutes, or call us directly.";

/**
 * Schema → honeypot → one statement that counts the hit against the rate limit and, within it, stores the
 * request and its outbox rows. Nothing is "stored" before it has committed. The body's type and size, and
 * whether the request may come from another site, are decided at the edge before it gets here.
 */
export function createLeadIntake(options: LeadIntakeOptions): LeadIntake {
  return { submit: (input) => intake(options, input) };
}

async function intake(options: LeadIntakeOptions, input: LeadInput): Promise<LeadOutcome> {
  const { globalPrivacyControl } = input;
  // How the visitor found the site travels with the lead's fields; a bad value is dropped, never refused.
  const { attribution, rest } = takeAttribution(input.fields, input.referer, globalPrivacyControl);
  const { [HONEYPOT_FIELD]: honeypot, [SUBMISSION_ID_FIELD]: submissionField, ...payload } = rest;
  const values = textValues(payload);
  const submissionId = input.idempotencyKey ?? submissionField;
  if (submissionId !== undefined && (typeof submissionId !== "string" || !SUBMISSION_ID_PATTERN.test(submissionId))) {
    return {
      outcome: "invalid",
      reason: "submission-id",
      message: `The ${IDEMPOTENCY_HEADER} must be 1 to 64 letters, digits, "-" or "_".`,
      fieldErrors: {},
      values,
    };
  }
  if (input.kind === "opt-out") payload.type ??= "opt-out";
  const validation = validateLead(input.kind ?? (payload.type === "opt-out" ? "opt-out" : "contact"), payload);
  if (!validation.success) {
    const unknown = validation.unknownFields.map((field) => field.slice(0, 40)).slice(0, 5);
    const message = unknown.length
      ? `Unexpected field${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`
      : "Please correct the highlighted fields.";
    return { outcome: "invalid", reason: "fields", message, fieldErrors: validation.fieldErrors, values, submissionId };
  }
  // Bots fill in every field; people never see this one.
  if (honeypot !== undefined && honeypot !== "")
    return { outcome: "refused", message: "Your request could not be accepted." };

  const key = submissionKey(validation.lead, input.client, submissionId, input.channel);
  let stored: StoreResult;
  try {
    stored = await store(
      options,
      { key, client: input.client, globalPrivacyControl, attribution },
      validation.lead,
      input,
    );
  } catch (error) {
    // The message only: a database error's details can quote the values it was given.
    log.error(
      `leads: storage failed: ${withoutEmailAddresses(error instanceof Error ? error.message : String(error))}`,
    );
    return { outcome: "unavailable", message: STORAGE_UNAVAILABLE, values, submissionId };
  }
  switch (stored.outcome) {
    case "limited":
      return {
        outcome: "limited",
        retryAfterSeconds: stored.retryAfterSeconds,
        message: "Too many requests. Please try again later, or call us directly.",
        values,
        submissionId,
      };
    case "repeat":
      if (stored.sameLead) return { outcome: "repeat", id: stored.id };
      return {
        outcome: "invalid",
        reason: "reused-submission-id",
        message: `This ${IDEMPOTENCY_HEADER} was already used for a different request.`,
        fieldErrors: {},
        values,
      };
    case "stored":
      options.onAccepted(
        validation.lead.kind === "contact"
          ? {
              kind: "contact",
              id: stored.id,
              service: validation.lead.data.service,
              webhooks: stored.webhooks,
              zip: Boolean(validation.lead.data.zip),
            }
          : { kind: "opt-out", id: stored.id },
      );
      return { outcome: "stored", id: stored.id };
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
  submission: LeadInput,
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
        zip: lead.data.zip || null,
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
  const dueAt = optOutDueAt(receivedAt, options.emailSettings.timeZone);
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
