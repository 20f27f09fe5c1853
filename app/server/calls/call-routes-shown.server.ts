import { asc, inArray } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { formatMinor } from "../ledger/index.server.ts";
import { minutesAndSeconds } from "./partner-call-notice.server.ts";
import { callOffers, type CallBilling } from "./schema.server.ts";

/** A routed call's route as the Calls page shows it: who rang and how each answered, billable or why not, the charge. */
export interface CallRouteShown {
  /** "Ruiz Plumbing: busy", "Okafor Drains: took it, 2 min 05 s", in the order they rang. */
  rang: string[];
  /** "Billable", or "Not billable: …". */
  billing: string;
  /** The charge, "$25.00"; null when nothing was charged. */
  charge: string | null;
}

const NOT_BILLABLE: Record<Exclude<CallBilling, "billable">, string> = {
  short: "Not billable: too short",
  "repeat-caller": "Not billable: the same caller again",
  "no-fee": "Not billable: no fee per call",
};

/** The routes of the routed calls among `routed`, by call id. */
export async function routesShown(
  db: Database,
  routed: { id: string; billing: CallBilling | null; chargeMinor: number | null }[],
  currency: string,
): Promise<Map<string, CallRouteShown>> {
  if (routed.length === 0) return new Map();
  const offers = await db
    .select({
      callId: callOffers.callId,
      business: callOffers.business,
      status: callOffers.status,
      missedBecause: callOffers.missedBecause,
      talkSeconds: callOffers.talkSeconds,
    })
    .from(callOffers)
    .where(
      inArray(
        callOffers.callId,
        routed.map((call) => call.id),
      ),
    )
    .orderBy(asc(callOffers.callId), asc(callOffers.position));
  return new Map(
    routed.map((call) => {
      const rang = offers
        .filter((offer) => offer.callId === call.id)
        .map((offer) => {
          if (offer.status === "ringing") return `${offer.business}: ringing`;
          if (offer.status === "taken") return `${offer.business}: took it, on the call`;
          if (offer.status === "ended")
            return `${offer.business}: took it, ${minutesAndSeconds(offer.talkSeconds ?? 0)}`;
          return `${offer.business}: ${(offer.missedBecause ?? "no answer").toLowerCase()}`;
        });
      const billing =
        call.billing === null
          ? rang.length === 0
            ? "Not billable: no partner was free"
            : "Not billable: no partner took it"
          : call.billing === "billable"
            ? "Billable"
            : NOT_BILLABLE[call.billing];
      const charge = call.chargeMinor === null ? null : formatMinor(call.chargeMinor, currency);
      return [call.id, { rang, billing, charge }];
    }),
  );
}
