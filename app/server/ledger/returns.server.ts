import { desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { escapeHtml } from "../../lib/escape-html.ts";
import { sqlNames, type Database, type RunStatement } from "../db/index.server.ts";
import { emailRow, queueEmailsCte, type EmailToSend } from "../outbox/index.server.ts";
import { isoUtc, queueWebhooksCte } from "../webhooks/index.server.ts";
import { RETURN_REASONS } from "../../lib/return-reasons.ts";
import { isRowId } from "../../lib/row-id.ts";
import { creditWithWebhooksCte } from "./entries.server.ts";
import { formatMinor } from "./money.server.ts";
import { ledgerEntries, leadReturns } from "./schema.server.ts";

const r = sqlNames(leadReturns);
const e = sqlNames(ledgerEntries);

/** A return's charge (its referral's, or its call's), joined to it. */
const charges = sql`(${ledgerEntries.referralId} = ${leadReturns.referralId} OR ${ledgerEntries.callId} = ${leadReturns.callId}) AND ${ledgerEntries.kind} = 'charge'`;

/** What a partner may write when the reason is "Other". */
const DETAIL_MAX_LENGTH = 500;

export type ReturnRequest = { reason: (typeof RETURN_REASONS)[number]; detail: string | null };

/** The return form's fields, checked: a listed reason, and for "Other" a few words of why. */
export function validateReturn(form: FormData): { ok: true; request: ReturnRequest } | { ok: false; error: string } {
  const reason = RETURN_REASONS.find((listed) => listed === form.get("reason"));
  if (!reason) return { ok: false, error: "Choose a reason from the list." };
  const detail = String(form.get("detail") ?? "").trim();
  if (detail.length > DETAIL_MAX_LENGTH) return { ok: false, error: `Write at most ${DETAIL_MAX_LENGTH} characters.` };
  if (reason === "Other" && detail === "") return { ok: false, error: "Say why you are returning the lead." };
  return { ok: true, request: { reason, detail: detail || null } };
}

export type ReturnOutcome = { kind: "sent" } | { kind: "window-closed" } | { kind: "already-returned" };

/**
 * `name AS (…)`: a `return.requested` or `return.decided` webhook for each return `from` (a CTE returning the
 * returns' rows) yields, in the statement that records it. The lead is the one its referral was charged for.
 */
function queueReturnWebhooksCte(name: string, event: "return.requested" | "return.decided", from: string): string {
  const data = `jsonb_build_object('id', returned.${r.id}, 'referral_id', returned.${r.referralId},
    'call_id', returned.${r.callId},
    'lead_id', (SELECT charge.${e.leadId} FROM ${e.table} AS charge
      WHERE charge.${e.referralId} = returned.${r.referralId} AND charge.${e.kind} = 'charge'),
    'partner_id', returned.${r.partnerId}, 'reason', returned.${r.reason}, 'detail', returned.${r.detail},
    'requested_at', ${isoUtc(`returned.${r.requestedAt}`)}, 'decision', returned.${r.decision},
    'decided_at', ${isoUtc(`returned.${r.decidedAt}`)}, 'decided_by', returned.${r.decidedBy},
    'denial_reason', returned.${r.denialReason})`;
  return queueWebhooksCte({ name, event, from: `${from} AS returned`, data });
}

/**
 * "Send return": within `windowDays` of accepting, once per referral (a unique index, so two at once make one),
 * with its `return.requested` webhooks. The operator decides it on the Returns page.
 */
const REQUEST = `WITH requested AS (
  INSERT INTO ${r.table} (${r.referralId}, ${r.partnerId}, ${r.reason}, ${r.detail}) VALUES ($1::uuid, $2::uuid, $3, $4)
  ON CONFLICT (${r.referralId}) DO NOTHING
  RETURNING *
),
${queueReturnWebhooksCte("queued_webhooks", "return.requested", "requested")}
SELECT count(*)::int AS requested FROM requested`;

export async function requestReturn(
  run: RunStatement,
  input: { referralId: string; partnerId: string; acceptedAt: Date; windowDays: number; request: ReturnRequest },
): Promise<ReturnOutcome> {
  if (Date.now() > input.acceptedAt.getTime() + input.windowDays * 86_400_000) return { kind: "window-closed" };
  const [row] = await run<{ requested: number }>("ledger_return_request", REQUEST, [
    input.referralId,
    input.partnerId,
    input.request.reason,
    input.request.detail,
  ]);
  return (row?.requested ?? 0) > 0 ? { kind: "sent" } : { kind: "already-returned" };
}

/** A call's dispute, once per call, with its `return.requested` webhooks. */
const REQUEST_CALL_DISPUTE = `WITH requested AS (
  INSERT INTO ${r.table} (${r.callId}, ${r.partnerId}, ${r.reason}, ${r.detail}) VALUES ($1::uuid, $2::uuid, $3, $4)
  ON CONFLICT (${r.callId}) DO NOTHING
  RETURNING *
),
${queueReturnWebhooksCte("queued_webhooks", "return.requested", "requested")}
SELECT count(*)::int AS requested FROM requested`;

/**
 * "Dispute this call": within `windowDays` of the charge, once per call (a unique index). The operator decides it
 * on the Returns page with the returned leads.
 */
export async function requestCallDispute(
  run: RunStatement,
  input: { callId: string; partnerId: string; chargedAt: Date; windowDays: number; request: ReturnRequest },
): Promise<ReturnOutcome> {
  if (Date.now() > input.chargedAt.getTime() + input.windowDays * 86_400_000) return { kind: "window-closed" };
  const [row] = await run<{ requested: number }>("ledger_call_dispute_request", REQUEST_CALL_DISPUTE, [
    input.callId,
    input.partnerId,
    input.request.reason,
    input.request.detail,
  ]);
  return (row?.requested ?? 0) > 0 ? { kind: "sent" } : { kind: "already-returned" };
}

/** A call's dispute, if any, as its page shows it. */
export async function disputeOfCall(db: Database, callId: string) {
  const [found] = await db
    .select({ reason: leadReturns.reason, decision: leadReturns.decision, denialReason: leadReturns.denialReason })
    .from(leadReturns)
    .where(eq(leadReturns.callId, callId));
  return found ?? null;
}

/** The return a referral has, if any, as its partner's page shows it. */
export async function returnOf(db: Database, referralId: string) {
  const [found] = await db
    .select({
      reason: leadReturns.reason,
      decision: leadReturns.decision,
      denialReason: leadReturns.denialReason,
    })
    .from(leadReturns)
    .where(eq(leadReturns.referralId, referralId));
  return found ?? null;
}

const RETURN_COLUMNS = {
  id: leadReturns.id,
  /** Set for a disputed call, null for a returned lead. */
  callId: leadReturns.callId,
  partnerId: leadReturns.partnerId,
  reason: leadReturns.reason,
  detail: leadReturns.detail,
  requestedAt: leadReturns.requestedAt,
  decision: leadReturns.decision,
  decidedAt: leadReturns.decidedAt,
  decidedBy: leadReturns.decidedBy,
  denialReason: leadReturns.denialReason,
  service: ledgerEntries.service,
  zip: ledgerEntries.zip,
  jobDay: ledgerEntries.occurredOn,
  chargeMinor: ledgerEntries.amountMinor,
  leadId: ledgerEntries.leadId,
};

/** A return still waiting for a decision: whose, and for which job. */
export async function openReturn(db: Database, returnId: string) {
  const [found] = await db
    .select({
      partnerId: leadReturns.partnerId,
      service: ledgerEntries.service,
      zip: ledgerEntries.zip,
      chargeMinor: ledgerEntries.amountMinor,
    })
    .from(leadReturns)
    .leftJoin(ledgerEntries, charges)
    .where(sql`${leadReturns.id} = ${returnId}::uuid AND ${leadReturns.decision} IS NULL`);
  return found ?? null;
}

/** How many returns wait for the operator's decision (the console's navigation). */
export async function openReturnCount(db: Database): Promise<number> {
  return db.$count(leadReturns, isNull(leadReturns.decision));
}

/** The returns of a lead's charges, oldest first. */
export async function leadReturnsOf(db: Database, leadId: string) {
  if (!isRowId(leadId)) return [];
  return db
    .select(RETURN_COLUMNS)
    .from(leadReturns)
    .innerJoin(ledgerEntries, charges)
    .where(eq(ledgerEntries.leadId, leadId))
    .orderBy(leadReturns.requestedAt);
}

/** Returns waiting for the operator, oldest first, and the last 50 decided, newest first. */
export async function listReturns(db: Database) {
  const [open, decided] = await Promise.all([
    db
      .select(RETURN_COLUMNS)
      .from(leadReturns)
      .leftJoin(ledgerEntries, charges)
      .where(isNull(leadReturns.decision))
      .orderBy(leadReturns.requestedAt),
    db
      .select(RETURN_COLUMNS)
      .from(leadReturns)
      .leftJoin(ledgerEntries, charges)
      .where(isNotNull(leadReturns.decision))
      .orderBy(desc(leadReturns.decidedAt))
      .limit(50),
  ]);
  return { open, decided };
}

/**
 * "Approve": the return is decided and the partner credited what the referral (or the disputed call) was charged,
 * with the webhooks of both, in one statement; a return is decided once, and credited once (a unique index on the
 * credit's return).
 */
const APPROVE = `WITH decided AS (
  UPDATE ${r.table} SET ${r.decision} = 'approved', ${r.decidedAt} = now(), ${r.decidedBy} = $2
  WHERE ${r.id} = $1::uuid AND ${r.decision} IS NULL
  RETURNING *
),
${queueReturnWebhooksCte("decided_webhooks", "return.decided", "decided")},
${creditWithWebhooksCte(`INSERT INTO ${e.table} (${e.partnerId}, ${e.kind}, ${e.amountMinor}, ${e.referralId}, ${e.callId}, ${e.leadId},
    ${e.returnId}, ${e.service}, ${e.zip}, ${e.source}, ${e.campaign}, ${e.occurredOn}, ${e.recordedBy}, ${e.note})
  SELECT decided.${r.partnerId}, 'credit', -charge.${e.amountMinor}, decided.${r.referralId}, decided.${r.callId},
    charge.${e.leadId}, decided.${r.id}, charge.${e.service},
    charge.${e.zip}, charge.${e.source}, charge.${e.campaign}, $3, $2,
    CASE WHEN decided.${r.callId} IS NULL THEN 'Lead returned' ELSE 'Call disputed' END
  FROM decided JOIN ${e.table} AS charge
    ON (charge.${e.referralId} = decided.${r.referralId} OR charge.${e.callId} = decided.${r.callId})
    AND charge.${e.kind} = 'charge'
  ON CONFLICT (${e.returnId}) WHERE ${e.kind} = 'credit' DO NOTHING`)},
${queueEmailsCte({ rows: "$4", where: "EXISTS (SELECT 1 FROM decided)" })}
SELECT (SELECT count(*) FROM decided)::int AS decided`;

/** "Deny": the return is decided, and the partner told why by email, with its webhooks, in one statement. */
const DENY = `WITH decided AS (
  UPDATE ${r.table} SET ${r.decision} = 'denied', ${r.decidedAt} = now(), ${r.decidedBy} = $2, ${r.denialReason} = $3
  WHERE ${r.id} = $1::uuid AND ${r.decision} IS NULL
  RETURNING *
),
${queueReturnWebhooksCte("decided_webhooks", "return.decided", "decided")},
${queueEmailsCte({ rows: "$4", where: "EXISTS (SELECT 1 FROM decided)" })}
SELECT (SELECT count(*) FROM decided)::int AS decided`;

/** Whom a decision is emailed to, about which job, and what it was charged. */
interface DecisionNotice {
  partner: { name: string; email: string };
  job: { service: string | null; zip: string | null; chargeMinor: number | null };
  settings: { companyName: string; replyTo: string; messageIdDomain: string; currency: string };
}

/** "Approve", and (with `notice`) the partner emailed the credit, in the same statement. */
export async function approveReturn(
  run: RunStatement,
  returnId: string,
  by: string,
  day: string,
  notice?: DecisionNotice,
): Promise<boolean> {
  const emails = notice ? [emailRow(decisionEmail("approved", notice, null), notice.settings.messageIdDomain)] : [];
  const [row] = await run<{ decided: number }>("ledger_return_approve", APPROVE, [
    returnId,
    by,
    day,
    JSON.stringify(emails),
  ]);
  return (row?.decided ?? 0) > 0;
}

/** The decision's email to the partner: the amount credited, or the charge that stands and the operator's reason. */
function decisionEmail(decision: "approved" | "denied", notice: DecisionNotice, reason: string | null): EmailToSend {
  const { partner, job, settings } = notice;
  const what = [job.service, job.zip].filter(Boolean).join(", ");
  const amount = job.chargeMinor === null ? null : formatMinor(job.chargeMinor, settings.currency);
  const outcome =
    decision === "approved"
      ? `Your return of the ${what || "referred"} job was approved${amount ? `: ${amount} is credited to your balance, on your next monthly statement` : ""}.`
      : `Your return of the ${what || "referred"} job was not approved${amount ? `: the ${amount} charge stands` : ""}.\n\nReason: ${reason}`;
  const text = `Hello ${partner.name},\n\n${outcome}\n\nReply to this email with any questions.\n\n${settings.companyName}\n`;
  return {
    purpose: decision === "approved" ? "lead_return_approved" : "lead_return_denied",
    to: partner.email,
    replyTo: settings.replyTo,
    subject:
      decision === "approved"
        ? `Your lead return was approved${amount ? `: ${amount} credited` : ""}`
        : "Your lead return was not approved",
    text,
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#111">${text
      .trim()
      .split("\n\n")
      .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
      .join("")}</body></html>`,
  };
}

export async function denyReturn(
  run: RunStatement,
  input: { returnId: string; by: string; reason: string } & DecisionNotice,
): Promise<boolean> {
  const email = emailRow(decisionEmail("denied", input, input.reason), input.settings.messageIdDomain);
  const [row] = await run<{ decided: number }>("ledger_return_deny", DENY, [
    input.returnId,
    input.by,
    input.reason,
    JSON.stringify([email]),
  ]);
  return (row?.decided ?? 0) > 0;
}
