import { randomUUID } from "node:crypto";
import { sqlNames, type RunStatement } from "../db/index.server.ts";
import { callOffers, calls } from "./schema.server.ts";

/**
 * A routed call's ring tree, as stored: which partners were dialled in which order and where each offer stands.
 * A partner is on one call at a time (a unique index over ringing and taken offers), so two calls at once never
 * ring the same partner; partners are tried by priority, then the one offered a call longest ago (round robin).
 */

const c = sqlNames(calls);
const o = sqlNames(callOffers);

/** A partner who may take a call now: active, taking calls, not paused, within their hours, serving the ZIP and service. */
export interface CallPartner {
  id: string;
  business: string;
  phone: string;
  /** 1 (first) to 3. */
  priority: number;
  /** The fee per call, in minor units, the default applied. */
  feeMinor: number;
  /** At most this many calls taken a day (in OPERATOR_TIME_ZONE); null: no cap. */
  callsPerDay: number | null;
}

/** An offer of a call to a partner: the number dialled, and the place in the tree. */
export interface RingingOffer {
  id: string;
  position: number;
  phone: string;
}

/** A ringing offer left by a lost webhook frees its partner after this long; a taken one after Twilio's longest call. */
const STALE_RINGING_MINUTES = 5;
const STALE_TAKEN_HOURS = 4;

/** An open offer this old was left by a lost webhook: its partner is free. */
const STALE = `((${o.status} = 'ringing' AND ${o.offeredAt} < now() - interval '${STALE_RINGING_MINUTES} minutes')
  OR (${o.status} = 'taken' AND ${o.offeredAt} < now() - interval '${STALE_TAKEN_HOURS} hours'))`;

/**
 * The routing decision in one statement (one round trip, one snapshot): stale offers released, the next place in the
 * tree, the partner to ring there and the offer claiming them. The partner is the first of `$1` (the partners module's
 * candidates) not on a call, not yet dialled for this call and under their daily cap, by priority, then the one
 * offered a call longest ago (never offered first), then id. The offer is inserted unless the call stopped ringing,
 * the tree is full, or a unique index refuses it: the partner went on another call in the meantime, or a repeated
 * step took this place (the caller then looks at what is there).
 *
 * The first condition of `released` is the one-call-per-partner index's predicate: that small index is read, not a
 * year of offers. The insert reads `released` so that its rows are released first and no longer hold the index.
 */
const OFFER_NEXT = `WITH released AS (
  UPDATE ${o.table} SET ${o.status} = 'missed', ${o.endedAt} = now(),
    ${o.missedBecause} = coalesce(${o.missedBecause}, 'No answer')
  WHERE ${o.status} IN ('ringing', 'taken') AND ${STALE}
  RETURNING 1
), place AS (
  SELECT count(*)::int + 1 AS position FROM ${o.table} WHERE ${o.callId} = $2
), ringing AS (
  SELECT EXISTS (SELECT 1 FROM ${c.table} WHERE ${c.id} = $2 AND ${c.status} = 'ringing') AS ringing
), candidate AS (
  SELECT partner.id, partner.business, partner.phone, partner.fee_minor
  FROM jsonb_to_recordset($1::jsonb)
    AS partner(id uuid, business text, phone text, priority int, fee_minor int, calls_per_day int)
  WHERE NOT EXISTS (SELECT 1 FROM ${o.table} WHERE ${o.partnerId} = partner.id
      AND ${o.status} IN ('ringing', 'taken') AND NOT ${STALE})
    AND NOT EXISTS (SELECT 1 FROM ${o.table} WHERE ${o.partnerId} = partner.id AND ${o.callId} = $2)
    AND (partner.calls_per_day IS NULL OR (SELECT count(*) FROM ${o.table} WHERE ${o.partnerId} = partner.id
      AND ${o.offeredAt} >= $3::timestamptz AND ${o.takenAt} IS NOT NULL) < partner.calls_per_day)
  ORDER BY partner.priority,
    (SELECT max(${o.offeredAt}) FROM ${o.table} WHERE ${o.partnerId} = partner.id) NULLS FIRST, partner.id
  LIMIT 1
), offered AS (
  INSERT INTO ${o.table} (${o.id}, ${o.callId}, ${o.position}, ${o.partnerId}, ${o.business}, ${o.phone}, ${o.feeMinor})
  SELECT $4, $2, place.position, candidate.id, candidate.business, candidate.phone, candidate.fee_minor
  FROM candidate, place, ringing, (SELECT count(*) FROM released) AS stale
  WHERE ringing.ringing AND place.position <= $5
  ON CONFLICT DO NOTHING
  RETURNING ${o.id} AS id
)
SELECT place.position, ringing.ringing, candidate.phone, (SELECT id FROM offered) AS offer_id
FROM place CROSS JOIN ringing LEFT JOIN candidate ON true`;

const OFFER_AT = `SELECT ${o.id} AS id, ${o.position} AS position, ${o.phone} AS phone, ${o.status} AS status
FROM ${o.table} WHERE ${o.callId} = $1 AND ${o.position} = $2`;

/**
 * Dials the next partner for a ringing call: the offer at the next place in the tree, or the one a repeated step
 * already made there; null when the call stopped ringing, the tree is full or no partner is free.
 */
export async function offerToNextPartner(
  run: RunStatement,
  callId: string,
  partners: readonly CallPartner[],
  options: { treeSize: number; dayStartedAt: Date },
): Promise<RingingOffer | null> {
  if (partners.length === 0) return null;
  const candidates = JSON.stringify(
    partners.map((partner) => ({
      id: partner.id,
      business: partner.business,
      phone: partner.phone,
      priority: partner.priority,
      fee_minor: partner.feeMinor,
      calls_per_day: partner.callsPerDay,
    })),
  );
  // Each refusal by the one-call-per-partner index leaves one partner fewer to try.
  for (let tries = 0; tries <= partners.length; tries++) {
    const id = randomUUID();
    const [decision] = await run<{ position: number; ringing: boolean; phone: string | null; offer_id: string | null }>(
      "call_offers_next",
      OFFER_NEXT,
      [candidates, callId, options.dayStartedAt.toISOString(), id, options.treeSize],
    );
    if (!decision || !decision.ringing || decision.position > options.treeSize || decision.phone === null) return null;
    if (decision.offer_id !== null) return { id, position: decision.position, phone: decision.phone };
    // Another request for this step made the offer at this place: the same partner rings, once.
    const [existing] = await run<RingingOffer & { status: string }>("call_offers_at", OFFER_AT, [
      callId,
      decision.position,
    ]);
    if (existing)
      return existing.status === "ringing"
        ? { id: existing.id, position: existing.position, phone: existing.phone }
        : null;
    // Otherwise the partner went on another call in the meantime: the next one.
  }
  return null;
}

const ANSWER = `UPDATE ${o.table} SET ${o.answeredAt} = coalesce(${o.answeredAt}, now())
FROM ${c.table}
WHERE ${o.table}.${o.id} = $1 AND ${o.table}.${o.status} = 'ringing' AND ${c.table}.${c.id} = ${o.table}.${o.callId}
RETURNING ${c.table}.${c.zip} AS zip, ${c.table}.${c.service} AS service`;

const OFFER_EXISTS = `SELECT ${o.status} AS status FROM ${o.table} WHERE ${o.id} = $1`;

export type OfferStep<T> = { kind: "ok"; value: T } | { kind: "over" } | { kind: "unknown" };

async function overOrUnknown(run: RunStatement, offerId: string): Promise<{ kind: "over" } | { kind: "unknown" }> {
  const [found] = await run<{ status: string }>("call_offers_exists", OFFER_EXISTS, [offerId]);
  return found ? { kind: "over" } : { kind: "unknown" };
}

/** The partner picked up: what the whisper tells them about the call. */
export async function answerOffer(
  run: RunStatement,
  offerId: string,
): Promise<OfferStep<{ zip: string | null; service: string | null }>> {
  const [call] = await run<{ zip: string | null; service: string | null }>("call_offers_answer", ANSWER, [offerId]);
  return call ? { kind: "ok", value: call } : overOrUnknown(run, offerId);
}

/** Taken only while it rings and the caller is still waiting. */
const TAKE = `UPDATE ${o.table} SET ${o.status} = 'taken', ${o.takenAt} = now()
WHERE ${o.id} = $1 AND ${o.status} = 'ringing'
  AND EXISTS (SELECT 1 FROM ${c.table} WHERE ${c.id} = ${o.callId} AND ${c.status} = 'ringing')
RETURNING ${o.id} AS id`;

/** The partner pressed 1: the caller is theirs. */
export async function takeOffer(run: RunStatement, offerId: string): Promise<OfferStep<true>> {
  const [taken] = await run<{ id: string }>("call_offers_take", TAKE, [offerId]);
  return taken ? { kind: "ok", value: true } : overOrUnknown(run, offerId);
}

const MISS = `UPDATE ${o.table} SET ${o.status} = 'missed', ${o.endedAt} = now(), ${o.missedBecause} = $2
WHERE ${o.id} = $1 AND ${o.status} = 'ringing'
RETURNING ${o.id} AS id`;

/** The partner did not take the call: no answer, busy, or no 1 in time. */
export async function missOffer(run: RunStatement, offerId: string, because: string): Promise<void> {
  await run("call_offers_miss", MISS, [offerId, because]);
}

/** What the Dial of an offer ended in, and the call it belongs to. */
const OFFER_OF = `SELECT ${o.table}.${o.status} AS status, ${o.position} AS position, ${c.table}.${c.callSid} AS call_sid,
  ${c.table}.${c.id} AS call_id
FROM ${o.table} JOIN ${c.table} ON ${c.table}.${c.id} = ${o.callId} WHERE ${o.table}.${o.id} = $1`;

export async function offerOf(
  run: RunStatement,
  offerId: string,
): Promise<{ status: string; position: number; callSid: string; callId: string } | null> {
  const [found] = await run<{ status: string; position: number; call_sid: string; call_id: string }>(
    "call_offers_of",
    OFFER_OF,
    [offerId],
  );
  return found
    ? { status: found.status, position: found.position, callSid: found.call_sid, callId: found.call_id }
    : null;
}

const RING_NOW = `SELECT ${o.id} AS id, ${o.position} AS position, ${o.phone} AS phone FROM ${o.table}
WHERE ${o.callId} = $1 AND ${o.status} = 'ringing' ORDER BY ${o.position} DESC LIMIT 1`;

/** The offer ringing for a call now, if any: what a repeated step answers with. */
export async function ringingOffer(run: RunStatement, callId: string): Promise<RingingOffer | null> {
  const [found] = await run<RingingOffer>("call_offers_ringing", RING_NOW, [callId]);
  return found ?? null;
}

const CLOSE = `UPDATE ${o.table} SET ${o.status} = 'missed', ${o.endedAt} = now(), ${o.missedBecause} = 'The caller hung up'
WHERE ${o.status} = 'ringing' AND ${o.callId} = (SELECT ${c.id} FROM ${c.table} WHERE ${c.callSid} = $1)`;

/** The caller hung up: a partner still ringing for them is free again. */
export async function closeRingingOffers(run: RunStatement, callSid: string): Promise<void> {
  await run("call_offers_close", CLOSE, [callSid]);
}
