import type { LeadForConversions } from "../leads/index.server.ts";
import {
  ANSWERED_CALL_MIN_SECONDS,
  type ConversionAction,
  type ConversionActionKey,
} from "./action-defaults.server.ts";
import type { AnsweredCall } from "./answered-calls.server.ts";
import type { AcceptedReferral } from "../ledger/index.server.ts";

/** The ad platforms take conversions of clicks from the last 90 days. */
export const CLICK_WINDOW_DAYS = 90;
const DAY_MS = 86_400_000;

export type AdPlatform = "google" | "microsoft";
export const adPlatforms: readonly AdPlatform[] = ["google", "microsoft"];

/** One conversion of one click, as a row of a platform's file. */
export interface ConversionRow {
  /** The action and what converted ("booked:<lead id>"): the same conversion has the same key in every download. */
  key: string;
  /** Which column holds the click id: Google's three kinds, or Microsoft's. */
  clickIdKind: "gclid" | "gbraid" | "wbraid" | "msclkid";
  clickId: string;
  name: string;
  time: Date;
  valueCents: number;
}

interface Converted {
  key: string;
  action: ConversionActionKey;
  /** When the ad was clicked, or as near as is known: the lead's arrival, the call's start. */
  clickedAt: Date;
  time: Date;
  ownValueCents: number | null;
  ids: Pick<LeadForConversions, "gclid" | "gbraid" | "wbraid" | "msclkid">;
}

/** The click id a platform matches on: Google's gclid, else its app (gbraid) or web-to-app (wbraid) id; one a row. */
function clickIdFor(
  platform: AdPlatform,
  ids: Converted["ids"],
): Pick<ConversionRow, "clickIdKind" | "clickId"> | null {
  if (platform === "microsoft") return ids.msclkid ? { clickIdKind: "msclkid", clickId: ids.msclkid } : null;
  for (const kind of ["gclid", "gbraid", "wbraid"] as const) {
    const id = ids[kind];
    if (id) return { clickIdKind: kind, clickId: id };
  }
  return null;
}

/**
 * Every conversion a platform can take now: a "Lead" per lead, a "Booked job" per booked lead (its own job value,
 * else the action's), an "Answered call" per answered call of at least 60 s; only switched-on actions, only clicks
 * of the last 90 days, in no particular order. Leads marked Spam or stored under Global Privacy Control never reach
 * here. Each download weighs every conversion of the 90 days (some 100,000 on a busy site), so a conversion the
 * platform cannot take is dropped before it becomes a row, and each row is made as the download weighs it: making
 * them all at once held the server's thread, and every visitor's request, for 60-160 ms.
 */
export function* conversionRows(
  platform: AdPlatform,
  sources: { leads: LeadForConversions[]; calls: AnsweredCall[]; referrals: AcceptedReferral[] },
  actions: Record<ConversionActionKey, ConversionAction>,
  now: Date,
): Generator<ConversionRow, void, undefined> {
  const oldestClick = now.getTime() - CLICK_WINDOW_DAYS * DAY_MS;
  const rowOf = (conversion: Converted): ConversionRow[] => {
    const action = actions[conversion.action];
    if (!action.enabled || conversion.clickedAt.getTime() < oldestClick) return [];
    const clickId = clickIdFor(platform, conversion.ids);
    if (!clickId) return [];
    return [
      {
        key: conversion.key,
        clickIdKind: clickId.clickIdKind,
        clickId: clickId.clickId,
        name: action.name,
        time: conversion.time,
        valueCents: conversion.ownValueCents ?? action.defaultValueCents,
      },
    ];
  };
  for (const lead of sources.leads) {
    yield* rowOf({
      key: `lead:${lead.id}`,
      action: "lead",
      clickedAt: lead.receivedAt,
      time: lead.receivedAt,
      ownValueCents: null,
      ids: lead,
    });
    if (lead.bookedAt) {
      yield* rowOf({
        key: `booked:${lead.id}`,
        action: "booked",
        clickedAt: lead.receivedAt,
        time: lead.bookedAt,
        ownValueCents: lead.jobValueCents,
        ids: lead,
      });
    }
  }
  const leadsById = new Map(sources.leads.map((lead) => [lead.id, lead]));
  for (const referral of sources.referrals) {
    const lead = leadsById.get(referral.leadId);
    if (!lead) continue;
    yield* rowOf({
      key: `referral:${referral.referralId}`,
      action: "referral",
      clickedAt: lead.receivedAt,
      time: referral.acceptedAt,
      ownValueCents: referral.feeMinor,
      ids: lead,
    });
  }
  for (const call of sources.calls) {
    if (call.durationSeconds < ANSWERED_CALL_MIN_SECONDS) continue;
    yield* rowOf({
      key: `call:${call.id}`,
      action: "call",
      clickedAt: call.answeredAt,
      time: call.answeredAt,
      ownValueCents: null,
      ids: call,
    });
  }
}
