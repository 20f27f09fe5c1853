import { and, asc, desc, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { defaultFee } from "../ledger/index.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import type { PartnerInput } from "./partner-form.server.ts";
import { partners, partnerSettings, referrals } from "./schema.server.ts";

/** The partner list, and adding, editing and deactivating partners. */

export interface Partner extends PartnerInput {
  id: string;
  active: boolean;
  /** Paused since then (no calls, no offers); null when not paused. */
  pausedAt: Date | null;
}

/** A new partner: the availability the form always gives may be left to its defaults (no calls, 24/7, priority 2). */
type NewPartner = Omit<PartnerInput, AvailabilityField> & Partial<Pick<PartnerInput, AvailabilityField>>;
type AvailabilityField = "takesCalls" | "callFeeMinor" | "hours" | "callsPerDay" | "priority";

/** A partner's row on /admin/partners: who they are and how they answer referrals. */
export interface PartnerWithStats extends Partner {
  offered: number;
  accepted: number;
  /** The median time from offer to answer (accept or decline), in seconds; null before any answer. */
  medianAnswerSeconds: number | null;
}

const partnerColumns = {
  id: partners.id,
  name: partners.name,
  business: partners.business,
  phone: partners.phone,
  email: partners.email,
  services: partners.services,
  zipCodes: partners.zipCodes,
  active: partners.active,
  feeMinor: partners.feeMinor,
  serviceFees: partners.serviceFees,
  takesCalls: partners.takesCalls,
  callFeeMinor: partners.callFeeMinor,
  hours: partners.hours,
  callsPerDay: partners.callsPerDay,
  priority: partners.priority,
  pausedAt: partners.pausedAt,
};

export async function listPartners(db: Database): Promise<PartnerWithStats[]> {
  const rows = await db
    .select({
      ...partnerColumns,
      offered: sql<number>`count(${referrals.id})::int`,
      accepted: sql<number>`(count(*) FILTER (WHERE ${referrals.answer} = 'accepted'))::int`,
      medianAnswerSeconds: sql<number | null>`percentile_cont(0.5) WITHIN GROUP (ORDER BY
        extract(epoch FROM ${referrals.answeredAt} - ${referrals.offeredAt}))`,
    })
    .from(partners)
    .leftJoin(referrals, eq(referrals.partnerId, partners.id))
    .groupBy(partners.id)
    .orderBy(desc(partners.active), asc(partners.name));
  return rows.map((row) => ({
    ...row,
    medianAnswerSeconds: row.medianAnswerSeconds === null ? null : Math.round(Number(row.medianAnswerSeconds)),
  }));
}

export async function findPartner(db: Database, id: string): Promise<Partner | null> {
  if (!isRowId(id)) return null;
  const [partner] = await db.select(partnerColumns).from(partners).where(eq(partners.id, id));
  return partner ?? null;
}

/**
 * The active partner other than `exceptId` who already has this email, if any: two partners with one email would
 * each be sent the other's offers and statements.
 */
export async function activePartnerWithEmail(
  db: Database,
  email: string,
  exceptId?: string,
): Promise<{ id: string; name: string } | null> {
  const [found] = await db
    .select({ id: partners.id, name: partners.name })
    .from(partners)
    .where(
      and(
        eq(partners.active, true),
        sql`lower(${partners.email}) = lower(${email})`,
        exceptId && isRowId(exceptId) ? ne(partners.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return found ?? null;
}

/**
 * Whether an active partner would be charged for what they are sent: a fee per referral above zero (their own, one
 * of their services', or the default one), or, for a partner who takes calls, a fee per call above zero (their own
 * or the default one).
 */
export async function pricedPartnerExists(db: Database): Promise<boolean> {
  const defaultReferralFee = await defaultFee(db);
  const defaultCallFee = sql`(SELECT ${partnerSettings.defaultCallFeeMinor} FROM ${partnerSettings} WHERE ${partnerSettings.id} = 1)`;
  const [row] = await db
    .select({ id: partners.id })
    .from(partners)
    .where(
      and(
        eq(partners.active, true),
        sql`(coalesce(${partners.feeMinor}, ${defaultReferralFee}) > 0
          OR EXISTS (SELECT 1 FROM jsonb_each_text(${partners.serviceFees}) AS fee WHERE fee.value::int > 0)
          OR (${partners.takesCalls} AND coalesce(${partners.callFeeMinor}, ${defaultCallFee}, 0) > 0))`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function addPartner(db: Database, partner: NewPartner): Promise<string> {
  const [added] = await db.insert(partners).values(partner).returning({ id: partners.id });
  return added!.id;
}

/** Returns false when no partner has that id. */
export async function editPartner(db: Database, id: string, partner: PartnerInput): Promise<boolean> {
  if (!isRowId(id)) return false;
  const updated = await db.update(partners).set(partner).where(eq(partners.id, id)).returning({ id: partners.id });
  return updated.length > 0;
}

/** Deactivates (no new referrals) or reactivates a partner; returns false when no partner has that id. */
export async function setPartnerActive(db: Database, id: string, active: boolean): Promise<boolean> {
  if (!isRowId(id)) return false;
  const updated = await db.update(partners).set({ active }).where(eq(partners.id, id)).returning({ id: partners.id });
  return updated.length > 0;
}

/**
 * "Pause" (no calls and no offers from now) or "Resume": what it did, or "unchanged" when the partner already was
 * (a second click changes nothing, not even the time paused since), or "not-found".
 */
export async function setPartnerPaused(
  db: Database,
  id: string,
  paused: boolean,
): Promise<"paused" | "resumed" | "unchanged" | "not-found"> {
  if (!isRowId(id)) return "not-found";
  const updated = await db
    .update(partners)
    .set({ pausedAt: paused ? sql`now()` : null })
    .where(and(eq(partners.id, id), paused ? isNull(partners.pausedAt) : isNotNull(partners.pausedAt)))
    .returning({ id: partners.id });
  if (updated.length > 0) return paused ? "paused" : "resumed";
  return (await findPartner(db, id)) ? "unchanged" : "not-found";
}

/** A partner the Refer section offers, with whether they serve the lead's ZIP. */
export interface ReferralCandidate {
  id: string;
  name: string;
  business: string;
  services: string[];
  servesZip: boolean;
}

/**
 * Active partners not paused, for a lead: those serving its ZIP first, then by name; only those offering `service`
 * when one is chosen.
 */
export async function referralCandidates(
  db: Database,
  { zip, service }: { zip: string | null; service: string | null },
): Promise<ReferralCandidate[]> {
  const active = await db
    .select({
      id: partners.id,
      name: partners.name,
      business: partners.business,
      services: partners.services,
      zipCodes: partners.zipCodes,
    })
    .from(partners)
    .where(and(eq(partners.active, true), isNull(partners.pausedAt)))
    .orderBy(asc(partners.name));
  return active
    .filter((partner) => !service || partner.services.includes(service))
    .map(({ zipCodes, ...partner }) => ({ ...partner, servesZip: zip !== null && zipCodes.includes(zip) }))
    .sort((a, b) => Number(b.servesZip) - Number(a.servesZip));
}
