import { attributionColumns } from "./attribution.server.ts";
import { type RunStatement, sqlNames } from "../db/index.server.ts";
import { confirmationEmailLimits, contactRequests, leadSubmissions, privacyRequests } from "./schema.server.ts";
import { countHitCte, limitResult } from "../limits/index.server.ts";
import { emailRow, queueEmailsCte } from "../outbox/index.server.ts";
import { queueWebhooksCte } from "../webhooks/index.server.ts";
import { leadWebhookData } from "./lead-webhooks.server.ts";
import type { RenderedEmail } from "./emails.server.ts";

/**
 * The lead store: the submission id, the visitor's hit against the form limit, the request and its emails
 * are written by ONE statement, atomic like a transaction and one round trip
 * (docs/decisions/050-one-statement-per-lead.md). Past the limit, or for a submission id already used,
 * the hit is counted and nothing else is written. A contact request's `lead.created` webhooks are queued by the
 * same statement, one for each endpoint that wants it (none, at no cost, when there is no endpoint).
 */

const contacts = sqlNames(contactRequests);
const privacy = sqlNames(privacyRequests);
const submissions = sqlNames(leadSubmissions);
const confirmations = sqlNames(confirmationEmailLimits);

/** At most this many opt-out confirmations go to one address per day, however many requests name it. */
const CONFIRMATIONS_PER_RECIPIENT_PER_DAY = 3;

type ContactColumn = keyof typeof contactRequests._.columns;
type PrivacyColumn = keyof typeof privacyRequests._.columns;

/** The columns a stored contact request is written with, in parameter order. */
const CONTACT_COLUMNS = [
  "id",
  "receivedAt",
  "firstName",
  "lastName",
  "email",
  "phone",
  "zip",
  "service",
  "message",
  "consentText",
  "channel",
  "globalPrivacyControl",
  ...Object.values(attributionColumns),
] as const satisfies readonly ContactColumn[];

/** The columns a stored opt-out request is written with, in parameter order. */
const OPT_OUT_COLUMNS = [
  "id",
  "receivedAt",
  "dueAt",
  "name",
  "email",
  "message",
  "channel",
] as const satisfies readonly PrivacyColumn[];

type ContactRow = Record<(typeof CONTACT_COLUMNS)[number], unknown> & { id: string };
type OptOutRow = Record<(typeof OPT_OUT_COLUMNS)[number], unknown> & { id: string };

/**
 * $1–$3 the form limit (the client's key, the window in seconds, the hits allowed), $4 the emails as JSON, $5 the submission key (or null), $6 its
 * fingerprint, $7 how long the key is kept (seconds); an opt-out's $8 is its recipient key; then the lead's columns.
 */
const FIRST_CONTACT_PARAM = 8;
const FIRST_OPT_OUT_PARAM = 9;

/**
 * `previous`: the live row of this submission key, as it was before the statement.
 * `claim`: takes the key for this lead; a live key conflicts and yields nothing, an expired one is reused.
 * Concurrent requests with one key wait on each other here, so only one of them stores its lead.
 */
const submissionKey = (idParam: number) => `previous AS (
  SELECT ${submissions.requestId} AS request_id, ${submissions.fingerprint} AS fingerprint FROM ${submissions.table}
  WHERE ${submissions.key} = $5::text AND ${submissions.expiresAt} > now()
),
claim AS (
  INSERT INTO ${submissions.table} AS taken (${submissions.key}, ${submissions.fingerprint}, ${submissions.requestId},
    ${submissions.expiresAt})
  SELECT $5::text, $6::text, $${idParam}::uuid, now() + $7 * interval '1 second'
  FROM form_hit WHERE allowed AND $5::text IS NOT NULL
  ON CONFLICT (${submissions.key}) DO UPDATE SET ${submissions.fingerprint} = EXCLUDED.${submissions.fingerprint},
    ${submissions.requestId} = EXCLUDED.${submissions.requestId}, ${submissions.expiresAt} = EXCLUDED.${submissions.expiresAt}
    WHERE taken.${submissions.expiresAt} <= now()
  RETURNING 1
)`;

/** `INSERT INTO table (columns) SELECT $n, … FROM form_hit WHERE allowed (and the key was claimed) RETURNING *`. */
function insertLead(names: { table: string } & Record<string, string>, columns: readonly string[], first: number) {
  const params = columns.map((_, index) => `$${first + index}`);
  return `lead AS (
  INSERT INTO ${names.table} (${columns.map((column) => names[column]).join(", ")})
  SELECT ${params.join(", ")} FROM form_hit
  WHERE allowed AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM claim))
  RETURNING *
)`;
}

/**
 * Counts a confirmation to the opt-out's recipient ($8) in a one-day window, when the request is stored.
 * Yields `allowed`: whether this one is within the day's limit.
 */
const COUNT_CONFIRMATION = `confirmation AS (
  INSERT INTO ${confirmations.table} AS counted (${confirmations.recipient}, ${confirmations.windowStartedAt},
    ${confirmations.sent})
  SELECT $8, now(), 1 FROM lead
  ON CONFLICT (${confirmations.recipient}) DO UPDATE SET
    ${confirmations.sent} = CASE WHEN counted.${confirmations.windowStartedAt} <= now() - interval '1 day'
      THEN 1 ELSE counted.${confirmations.sent} + 1 END,
    ${confirmations.windowStartedAt} = CASE WHEN counted.${confirmations.windowStartedAt} <= now() - interval '1 day'
      THEN now() ELSE counted.${confirmations.windowStartedAt} END
  RETURNING ${confirmations.sent} <= ${CONFIRMATIONS_PER_RECIPIENT_PER_DAY} AS allowed
)`;

const outcome = (webhooks: boolean) => `SELECT allowed, seconds_left, EXISTS (SELECT 1 FROM lead) AS stored,
  (SELECT request_id FROM previous) AS previous_id, (SELECT fingerprint FROM previous) AS previous_fingerprint,
  ${webhooks ? "EXISTS (SELECT 1 FROM queued_webhooks)" : "false"} AS webhooks_queued
FROM form_hit`;

const COUNT_FORM_HIT = countHitCte({ key: "$1", windowSeconds: "$2", allowed: "$3" });

const STORE_CONTACT = `WITH ${COUNT_FORM_HIT},
${submissionKey(FIRST_CONTACT_PARAM)},
${insertLead(contacts, CONTACT_COLUMNS, FIRST_CONTACT_PARAM)},
${queueEmailsCte({ rows: "$4", request: { column: "contact", from: "lead" } })},
${queueWebhooksCte({ name: "queued_webhooks", event: "lead.created", from: "lead", data: leadWebhookData("lead") })}
${outcome(true)}`;

const STORE_OPT_OUT = `WITH ${COUNT_FORM_HIT},
${submissionKey(FIRST_OPT_OUT_PARAM)},
${insertLead(privacy, OPT_OUT_COLUMNS, FIRST_OPT_OUT_PARAM)},
${COUNT_CONFIRMATION},
${queueEmailsCte({
  rows: "$4",
  request: { column: "privacy", from: "lead" },
  // An email to the requester is queued only within the recipient's daily limit, counted by this statement.
  where: "NOT email.to_requester OR (SELECT allowed FROM confirmation)",
})}
${outcome(false)}`;

/** A submission id and how long it protects against a repeat. */
export interface SubmissionKey {
  key: string;
  /** A hash of the lead: the same key with another lead is refused. */
  fingerprint: string;
  lifetimeSeconds: number;
}

export type StoreResult =
  /** `webhooks`: webhook deliveries were queued with it. */
  | { outcome: "stored"; id: string; webhooks: boolean }
  | { outcome: "limited"; retryAfterSeconds: number }
  /** The key was used before: the first request's id, and whether this request is the same lead. */
  | { outcome: "repeat"; id: string; sameLead: boolean };

export interface LeadStore {
  storeContact(
    clientKey: string,
    submission: SubmissionKey | null,
    row: ContactRow,
    emails: RenderedEmail[],
  ): Promise<StoreResult>;
  /** `confirmation` goes to the address the requester typed: at most a few a day per address. */
  storeOptOut(
    clientKey: string,
    submission: SubmissionKey | null,
    row: OptOutRow,
    emails: { confirmation: RenderedEmail; notification: RenderedEmail },
  ): Promise<StoreResult>;
}

interface LeadStoreOptions {
  run: RunStatement;
  /** The lead forms' limit per client: this many submissions per window. */
  formLimit: { perWindow: number; windowSeconds: number };
  /** The domain for Message-ID headers. */
  messageIdDomain: string;
}

type StoreOutcomeRow = {
  allowed: boolean;
  seconds_left: number;
  stored: boolean;
  previous_id: string | null;
  previous_fingerprint: string | null;
  webhooks_queued: boolean;
};

/**
 * The address an opt-out confirmation is counted against: lower case, without a "+tag" in the local part,
 * so that one inbox cannot be mailed more often by spelling its address differently.
 */
function recipientKey(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf("@");
  return `${lower.slice(0, at).split("+")[0]}${lower.slice(at)}`;
}

export function createLeadStore(options: LeadStoreOptions): LeadStore {
  const outboxRow = (email: RenderedEmail, toRequester = false) =>
    emailRow(email, options.messageIdDomain, toRequester);
  const store = async (
    name: string,
    text: string,
    params: unknown[],
    submission: SubmissionKey | null,
    id: string,
    attempt = 1,
  ): Promise<StoreResult> => {
    const [row] = await options.run<StoreOutcomeRow>(name, text, params);
    const result = row!;
    if (result.stored) return { outcome: "stored", id, webhooks: result.webhooks_queued };
    if (result.previous_id !== null) {
      return {
        outcome: "repeat",
        id: result.previous_id,
        sameLead: result.previous_fingerprint === submission?.fingerprint,
      };
    }
    const limit = limitResult(result);
    if (!limit.allowed) return { outcome: "limited", retryAfterSeconds: limit.retryAfterSeconds };
    // The key was taken by a request still being stored when this statement began: once it has committed,
    // running the statement again finds it and answers with its id.
    if (attempt >= 3) throw new Error("a submission key stayed taken without a stored request");
    return store(name, text, params, submission, id, attempt + 1);
  };
  const keyParams = (submission: SubmissionKey | null) => [
    submission?.key ?? null,
    submission?.fingerprint ?? null,
    submission?.lifetimeSeconds ?? 0,
  ];
  return {
    storeContact: (clientKey, submission, row, emails) =>
      store(
        "store_contact",
        STORE_CONTACT,
        [
          clientKey,
          options.formLimit.windowSeconds,
          options.formLimit.perWindow,
          JSON.stringify(emails.map((email) => outboxRow(email))),
          ...keyParams(submission),
          ...CONTACT_COLUMNS.map((column) => row[column]),
        ],
        submission,
        row.id,
      ),
    storeOptOut: (clientKey, submission, row, emails) =>
      store(
        "store_opt_out",
        STORE_OPT_OUT,
        [
          clientKey,
          options.formLimit.windowSeconds,
          options.formLimit.perWindow,
          JSON.stringify([outboxRow(emails.confirmation, true), outboxRow(emails.notification)]),
          ...keyParams(submission),
          recipientKey(String(row.email)),
          ...OPT_OUT_COLUMNS.map((column) => row[column]),
        ],
        submission,
        row.id,
      ),
  };
}
