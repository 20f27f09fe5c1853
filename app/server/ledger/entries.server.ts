import { and, asc, eq, sql } from "drizzle-orm";
import { executeRows, sqlNames, type Database } from "../db/index.server.ts";
import { isoUtc, queueWebhooksCte } from "../webhooks/index.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import { ledgerEntries, ledgerSettings, type LedgerKind } from "./schema.server.ts";

const e = sqlNames(ledgerEntries);
const s = sqlNames(ledgerSettings);

/**
 * `name AS (…)`: a `ledger.entry.created` webhook for each entry `from` (a CTE returning the entries' rows) yields, in
 * the statement that records them. Amounts are in minor units of CONVERSION_CURRENCY: positive is owed by the partner.
 */
function queueEntryWebhooksCte(name: string, from: string): string {
  const data = `jsonb_build_object('id', entry.${e.id}, 'partner_id', entry.${e.partnerId}, 'kind', entry.${e.kind},
    'amount_minor', entry.${e.amountMinor}, 'referral_id', entry.${e.referralId}, 'call_id', entry.${e.callId},
    'lead_id', entry.${e.leadId},
    'occurred_on', entry.${e.occurredOn}, 'recorded_by', entry.${e.recordedBy}, 'note', entry.${e.note},
    'recorded_at', ${isoUtc(`entry.${e.recordedAt}`)})`;
  return queueWebhooksCte({ name, event: "ledger.entry.created", from: `${from} AS entry`, data });
}

/**
 * `charged AS (INSERT …)`: the charge for a referral accepted in the same statement. `from` names a CTE with one
 * row per acceptance (`referral_id`, `lead_id`, `partner_id`, and `fee_minor`, the partner's own fee or null); the console's
 * default fee applies when the partner has none, and nothing is charged at a fee of zero. `service`, `zip`, `day`,
 * `source` and `campaign` (the lead's attribution, for revenue per campaign) are parameter placeholders. A referral is charged once, whatever races: a unique index, not a check.
 */
export function chargeAcceptedCte(options: {
  from: string;
  service: string;
  zip: string;
  day: string;
  source: string;
  campaign: string;
}): string {
  return `charged AS (
  INSERT INTO ${e.table} (${e.partnerId}, ${e.kind}, ${e.amountMinor}, ${e.referralId}, ${e.leadId}, ${e.service},
    ${e.zip}, ${e.occurredOn}, ${e.source}, ${e.campaign})
  SELECT accepted.partner_id, 'charge', fee.amount, accepted.referral_id, accepted.lead_id, ${options.service},
    ${options.zip}, ${options.day}, ${options.source}, ${options.campaign}
  FROM ${options.from} AS accepted,
    LATERAL (SELECT coalesce(accepted.fee_minor, (SELECT ${s.defaultFeeMinor} FROM ${s.table} WHERE ${s.id} = 1), 0) AS amount) AS fee
  WHERE fee.amount > 0
  ON CONFLICT (${e.referralId}) WHERE ${e.kind} = 'charge' DO NOTHING
  RETURNING *
),
${queueEntryWebhooksCte("charge_webhooks", "charged")}`;
}

/**
 * `call_charged AS (INSERT …)`: the charge for a partner's call, in the statement that ends it. `from` names a CTE
 * with one row per charged call: `partner_id`, `call_id`, `fee_minor` (more than zero), `service`, `zip`, `day`,
 * `source` and `campaign`. A call is charged once, whatever Twilio repeats: a unique index, not a check.
 */
export function chargeCallCte(from: string): string {
  return `call_charged AS (
  INSERT INTO ${e.table} (${e.partnerId}, ${e.kind}, ${e.amountMinor}, ${e.callId}, ${e.service}, ${e.zip},
    ${e.occurredOn}, ${e.source}, ${e.campaign}, ${e.note})
  SELECT billed.partner_id, 'charge', billed.fee_minor, billed.call_id, billed.service, billed.zip, billed.day,
    billed.source, billed.campaign, 'Call'
  FROM ${from} AS billed
  ON CONFLICT (${e.callId}) WHERE ${e.kind} = 'charge' DO NOTHING
  RETURNING *
),
${queueEntryWebhooksCte("call_charge_webhooks", "call_charged")}`;
}

/** `credited AS (INSERT …)` with its webhooks: the credit a return's approval records, in the approval's statement. */
export function creditWithWebhooksCte(insert: string): string {
  return `credited AS (${insert} RETURNING *),
${queueEntryWebhooksCte("credit_webhooks", "credited")}`;
}

/** The console's default fee per referral, in minor units (0 until set). */
export async function defaultFee(db: Database): Promise<number> {
  const [row] = await db.select().from(ledgerSettings).where(eq(ledgerSettings.id, 1));
  return row?.defaultFeeMinor ?? 0;
}

export async function setDefaultFee(db: Database, minor: number): Promise<void> {
  await db
    .insert(ledgerSettings)
    .values({ id: 1, defaultFeeMinor: minor })
    .onConflictDoUpdate({ target: ledgerSettings.id, set: { defaultFeeMinor: minor } });
}

export interface LedgerEntry {
  id: string;
  kind: LedgerKind;
  amountMinor: number;
  recordedAt: Date;
  recordedBy: string | null;
  referralId: string | null;
  service: string | null;
  zip: string | null;
  occurredOn: string | null;
  method: string | null;
  reference: string | null;
  note: string | null;
}

/** A partner's entries, oldest first, and the balance they owe: the sum of every entry. */
export async function partnerLedger(
  db: Database,
  partnerId: string,
): Promise<{ balanceMinor: number; entries: LedgerEntry[] }> {
  if (!isRowId(partnerId)) return { balanceMinor: 0, entries: [] };
  const entries = await db
    .select({
      id: ledgerEntries.id,
      kind: ledgerEntries.kind,
      amountMinor: ledgerEntries.amountMinor,
      recordedAt: ledgerEntries.recordedAt,
      recordedBy: ledgerEntries.recordedBy,
      referralId: ledgerEntries.referralId,
      service: ledgerEntries.service,
      zip: ledgerEntries.zip,
      occurredOn: ledgerEntries.occurredOn,
      method: ledgerEntries.method,
      reference: ledgerEntries.reference,
      note: ledgerEntries.note,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.partnerId, partnerId))
    .orderBy(asc(ledgerEntries.recordedAt), asc(ledgerEntries.id));
  return { balanceMinor: entries.reduce((sum, entry) => sum + entry.amountMinor, 0), entries };
}

/** A lead's charges and credits, oldest first: what each partner was charged for it, and credited back. */
export async function leadEntries(db: Database, leadId: string) {
  if (!isRowId(leadId)) return [];
  return db
    .select({
      id: ledgerEntries.id,
      kind: ledgerEntries.kind,
      partnerId: ledgerEntries.partnerId,
      amountMinor: ledgerEntries.amountMinor,
      recordedAt: ledgerEntries.recordedAt,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.leadId, leadId))
    .orderBy(asc(ledgerEntries.recordedAt), asc(ledgerEntries.id));
}

/**
 * Revenue per source and campaign of the leads: charges less credits recorded in [startsAt, endsAt), in minor
 * units. It is read from the entries alone, so a purged lead's revenue still counts.
 */
export async function revenueBySource(db: Database, startsAt: Date, endsAt: Date) {
  return db
    .select({
      source: sql<string>`coalesce(${ledgerEntries.source}, '')`,
      campaign: sql<string>`coalesce(${ledgerEntries.campaign}, '')`,
      revenueMinor: sql`sum(${ledgerEntries.amountMinor})::bigint`.mapWith(Number),
    })
    .from(ledgerEntries)
    .where(
      sql`${ledgerEntries.kind} IN ('charge', 'credit') AND ${ledgerEntries.recordedAt} >= ${startsAt.toISOString()}::timestamptz AND ${ledgerEntries.recordedAt} < ${endsAt.toISOString()}::timestamptz`,
    )
    .groupBy(sql`1`, sql`2`);
}

/** A referral accepted, with its lead and the fee charged: a "Referral accepted" conversion. */
export interface AcceptedReferral {
  referralId: string;
  leadId: string;
  acceptedAt: Date;
  feeMinor: number;
}

/** Referrals charged since `since` whose lead is known, oldest first. */
export async function acceptedReferralsSince(db: Database, since: Date): Promise<AcceptedReferral[]> {
  const rows = await db
    .select({
      referralId: ledgerEntries.referralId,
      leadId: ledgerEntries.leadId,
      acceptedAt: ledgerEntries.recordedAt,
      feeMinor: ledgerEntries.amountMinor,
    })
    .from(ledgerEntries)
    .where(
      sql`${ledgerEntries.kind} = 'charge' AND ${ledgerEntries.leadId} IS NOT NULL AND ${ledgerEntries.recordedAt} >= ${since.toISOString()}::timestamptz`,
    )
    .orderBy(asc(ledgerEntries.recordedAt));
  return rows.map((row) => ({ ...row, referralId: row.referralId!, leadId: row.leadId! }));
}

/** Each partner's balance (the sum of their entries), for the partners list. */
export async function balances(db: Database): Promise<Map<string, number>> {
  const rows = await db
    .select({
      partnerId: ledgerEntries.partnerId,
      balance: sql`sum(${ledgerEntries.amountMinor})::bigint`.mapWith(Number),
    })
    .from(ledgerEntries)
    .groupBy(ledgerEntries.partnerId);
  return new Map(rows.map((row) => [row.partnerId, row.balance]));
}

/**
 * The most a partner's balance may be, either way, in minor units (ten million dollars; a billion yen): far past
 * any real balance, and within an integer's range. An entry that would take a balance past it, or further past it,
 * is refused; one that brings it back toward zero is always recorded.
 */
export const BALANCE_LIMIT_MINOR = 1_000_000_000;

/**
 * SQL: whether the charge for accepting a referral would take the partner's balance past the limit: their entries'
 * sum plus `partnerFee` (their own fee for the job, or null for the console's default, as chargeAcceptedCte charges).
 */
export function chargePassesLimitSql(partnerId: string, partnerFee: string): string {
  return `(SELECT coalesce(sum(${e.amountMinor}), 0) FROM ${e.table} WHERE ${e.partnerId} = ${partnerId})::bigint
    + coalesce(${partnerFee}, (SELECT ${s.defaultFeeMinor} FROM ${s.table} WHERE ${s.id} = 1), 0) > ${BALANCE_LIMIT_MINOR}`;
}

/** Whether an entry the operator records was recorded, or refused because of the balance limit. */
export type RecordOutcome = "recorded" | "over-limit";

/** "Record payment": money received from the partner, a negative entry. */
export async function recordPayment(
  db: Database,
  payment: { partnerId: string; amountMinor: number; date: string; method: string; reference: string; by: string },
): Promise<RecordOutcome> {
  return recordEntry(db, {
    partnerId: payment.partnerId,
    kind: "payment",
    amountMinor: -payment.amountMinor,
    occurredOn: payment.date,
    method: payment.method,
    reference: payment.reference || null,
    recordedBy: payment.by,
  });
}

/**
 * The date of a payment already recorded from this partner for this amount with this reference (none: none), if any:
 * a second one is most likely the same payment recorded twice, which only a visible adjustment could undo.
 */
export async function samePaymentOn(
  db: Database,
  payment: { partnerId: string; amountMinor: number; reference: string },
): Promise<string | null> {
  const [found] = await db
    .select({ occurredOn: ledgerEntries.occurredOn })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.partnerId, payment.partnerId),
        eq(ledgerEntries.kind, "payment"),
        eq(ledgerEntries.amountMinor, -payment.amountMinor),
        sql`coalesce(${ledgerEntries.reference}, '') = ${payment.reference}`,
      ),
    )
    .limit(1);
  return found ? (found.occurredOn ?? "") : null;
}

/**
 * "Record adjustment": a correction either way, with the operator's note that explains it and, if given, a note for
 * the partner (the only one their statement prints).
 */
export async function recordAdjustment(
  db: Database,
  adjustment: { partnerId: string; amountMinor: number; note: string; partnerNote?: string; date: string; by: string },
): Promise<RecordOutcome> {
  return recordEntry(db, {
    partnerId: adjustment.partnerId,
    kind: "adjustment",
    amountMinor: adjustment.amountMinor,
    occurredOn: adjustment.date,
    note: adjustment.note,
    partnerNote: adjustment.partnerNote || null,
    recordedBy: adjustment.by,
  });
}

/** An entry the operator records, and its webhooks, in one statement: only within the balance limit. */
async function recordEntry(
  db: Database,
  entry: {
    partnerId: string;
    kind: "payment" | "adjustment";
    amountMinor: number;
    occurredOn: string;
    recordedBy: string;
    method?: string;
    reference?: string | null;
    note?: string;
    partnerNote?: string | null;
  },
): Promise<RecordOutcome> {
  const [row] = await executeRows<{ recorded: number }>(
    db,
    sql`WITH balance AS (
      SELECT coalesce(sum(${sql.raw(e.amountMinor)}), 0)::bigint AS before,
        coalesce(sum(${sql.raw(e.amountMinor)}), 0)::bigint + ${entry.amountMinor}::bigint AS after
      FROM ${sql.raw(e.table)} WHERE ${sql.raw(e.partnerId)} = ${entry.partnerId}::uuid
    ),
    recorded AS (
      INSERT INTO ${sql.raw(e.table)} (${sql.raw(e.partnerId)}, ${sql.raw(e.kind)}, ${sql.raw(e.amountMinor)},
        ${sql.raw(e.occurredOn)}, ${sql.raw(e.method)}, ${sql.raw(e.reference)}, ${sql.raw(e.note)}, ${sql.raw(e.partnerNote)},
        ${sql.raw(e.recordedBy)})
      SELECT ${entry.partnerId}::uuid, ${entry.kind}, ${entry.amountMinor}::int, ${entry.occurredOn},
        ${entry.method ?? null}, ${entry.reference ?? null}, ${entry.note ?? null}, ${entry.partnerNote ?? null},
        ${entry.recordedBy}
      FROM balance WHERE abs(balance.after) <= ${BALANCE_LIMIT_MINOR} OR abs(balance.after) < abs(balance.before)
      RETURNING *
    ),
    ${sql.raw(queueEntryWebhooksCte("entry_webhooks", "recorded"))}
    SELECT count(*)::int AS recorded FROM recorded`,
  );
  return row?.recorded ? "recorded" : "over-limit";
}

/** The charge of a referral, if it was charged. */
export async function chargeOf(db: Database, referralId: string) {
  const [charge] = await db
    .select({ amountMinor: ledgerEntries.amountMinor, recordedAt: ledgerEntries.recordedAt })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.referralId, referralId), eq(ledgerEntries.kind, "charge")));
  return charge ?? null;
}
