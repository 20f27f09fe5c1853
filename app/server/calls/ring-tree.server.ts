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

/** The first condition is the one-call-per-partner index's predicate: that small index can be read, not a year of offers. */
const RELEASE_STALE = `UPDATE ${o.table} SET ${o.status} = 'missed', ${o.endedAt} = now(),
  ${o.missedBecause} = coalesce(${o.missedBecause}, 'No answer')
WHERE ${o.status} IN ('ringing', 'taken')
  AND ((${o.status} = 'ringing' AND ${o.offeredAt} < now() - interval '${STALE_RINGING_MINUTES} minutes')
    OR (${o.status} = 'taken' AND ${o.offeredAt} < now() - interval '${STALE_TAKEN_HOURS} hours'))`;

/** For each partner: when last offered a call, how many calls taken since the day began, whether on a call now. */
const PARTNER_TURNS = `SELECT partner.id,
  (SELECT max(${o.offeredAt}) FROM ${o.table} WHERE ${o.partnerId} = partner.id) AS last_offered_at,
  (SELECT count(*) FROM ${o.table} WHERE ${o.partnerId} = partner.id AND ${o.offeredAt} >= $2::timestamptz
    AND ${o.takenAt} IS NOT NULL)::int AS taken_today,
  EXISTS (SELECT 1 FROM ${o.table} WHERE ${o.partnerId} = partner.id AND ${o.status} IN ('ringing', 'taken')) AS busy,
  EXISTS (SELECT 1 FROM ${o.table} WHERE ${o.partnerId} = partner.id AND ${o.callId} = $3) AS offered_this_call
FROM (SELECT value::uuid AS id FROM jsonb_array_elements_text($1::jsonb)) AS partner`;

const OFFER_COUNT = `SELECT count(*)::int AS offers FROM ${o.table} WHERE ${o.callId} = $1`;

/** The offer, unless the partner is on another call or this place in the tree is already taken by a repeat. */
const INSERT_OFFER = `INSERT INTO ${o.table} (${o.id}, ${o.callId}, ${o.position}, ${o.partnerId}, ${o.business},
  ${o.phone}, ${o.feeMinor})
SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM ${c.table} WHERE ${c.id} = $2 AND ${c.status} = 'ringing')
ON CONFLICT DO NOTHING
RETURNING ${o.id} AS id`;

const OFFER_AT = `SELECT ${o.id} AS id, ${o.position} AS position, ${o.phone} AS phone, ${o.status} AS status
FROM ${o.table} WHERE ${o.callId} = $1 AND ${o.position} = $2`;

export interface PartnerTurn {
  id: string;
  lastOfferedAt: Date | null;
  takenToday: number;
  busy: boolean;
  offeredThisCall: boolean;
}

/**
 * The partners to try, best first: those not on a call, not yet dialled for this call and under their daily cap,
 * by priority, then the one offered a call longest ago (never offered first).
 */
function ringOrder(partners: readonly CallPartner[], turns: ReadonlyMap<string, PartnerTurn>): CallPartner[] {
  const lastOffered = (partner: CallPartner) => turns.get(partner.id)?.lastOfferedAt?.getTime() ?? -Infinity;
  return partners
    .filter((partner) => {
      const turn = turns.get(partner.id);
      if (!turn) return true;
      if (turn.busy || turn.offeredThisCall) return false;
      return partner.callsPerDay === null || turn.takenToday < partner.callsPerDay;
    })
    .sort(
      (a, b) => a.priority - b.priority || lastOffered(a) - lastOffered(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
}

/**
 * Dials the next partner for a ringing call: the offer at the next place in the tree, or the one a repeated step
 * already made there; null when the tree is full or no partner is free.
 */
export async function offerToNextPartner(
  run: RunStatement,
  callId: string,
  partners: readonly CallPartner[],
  options: { treeSize: number; dayStartedAt: Date },
): Promise<RingingOffer | null> {
  await run("call_offers_release_stale", RELEASE_STALE, []);
  const [{ offers } = { offers: 0 }] = await run<{ offers: number }>("call_offers_count", OFFER_COUNT, [callId]);
  const position = offers + 1;
  if (position > options.treeSize || partners.length === 0) return null;
  const rows = await run<{
    id: string;
    last_offered_at: Date | string | null;
    taken_today: number;
    busy: boolean;
    offered_this_call: boolean;
  }>("call_offers_turns", PARTNER_TURNS, [
    JSON.stringify(partners.map((partner) => partner.id)),
    options.dayStartedAt.toISOString(),
    callId,
  ]);
  const turns = new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        lastOfferedAt: row.last_offered_at === null ? null : new Date(row.last_offered_at),
        takenToday: row.taken_today,
        busy: row.busy,
        offeredThisCall: row.offered_this_call,
      },
    ]),
  );
  for (const partner of ringOrder(partners, turns)) {
    const id = randomUUID();
    const inserted = await run<{ id: string }>("call_offers_insert", INSERT_OFFER, [
      id,
      callId,
      position,
      partner.id,
      partner.business,
      partner.phone,
      partner.feeMinor,
    ]);
    if (inserted.length > 0) return { id, position, phone: partner.phone };
    // Another request for this step made the offer at this place: the same partner rings, once.
    const [existing] = await run<RingingOffer & { status: string }>("call_offers_at", OFFER_AT, [callId, position]);
    if (existing) return existing.status === "ringing" ? existing : null;
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
