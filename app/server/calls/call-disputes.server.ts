import { eq } from "drizzle-orm";
import { formatTime } from "~/lib/operator-time.ts";
import type { Database, RunStatement } from "../db/index.server.ts";
import { disputeOfCall, formatMinor, requestCallDispute, validateReturn } from "../ledger/index.server.ts";
import { minutesAndSeconds } from "./partner-call-notice.server.ts";
import { calls } from "./schema.server.ts";

/**
 * "Dispute this call": the partner's signed link to a call they were charged for (/d/<token>), with the call and a
 * form of the return reasons. A dispute goes to the console's Returns page like a lead's return; approved, it is a
 * credit of the charge.
 */

export interface DisputedCall {
  when: string;
  caller: string;
  duration: string;
  charge: string;
  service: string | null;
  zip: string | null;
}

export type CallDisputePage =
  | { kind: "not-found" }
  | {
      kind: "call";
      call: DisputedCall;
      dispute:
        | { state: "open"; error?: string }
        | { state: "window-closed" }
        | { state: "sent"; reason: string }
        | { state: "approved"; reason: string }
        | { state: "denied"; reason: string; denialReason: string | null };
    };

export function createCallDisputes(settings: {
  db: Database;
  run: RunStatement;
  /** The call a link's token names, or null for a token not issued here. */
  verify(token: string): string | null;
  currency: string;
  timeZone: string;
  returnWindowDays: number;
}) {
  const { db } = settings;

  async function find(token: string) {
    const callId = settings.verify(token);
    if (!callId) return null;
    const [call] = await db
      .select({
        id: calls.id,
        startedAt: calls.startedAt,
        endedAt: calls.endedAt,
        caller: calls.caller,
        seconds: calls.durationSeconds,
        chargeMinor: calls.chargeMinor,
        partnerId: calls.partnerId,
        service: calls.service,
        zip: calls.zip,
      })
      .from(calls)
      .where(eq(calls.id, callId));
    return call?.partnerId && call.chargeMinor !== null ? call : null;
  }

  async function page(token: string, error?: string): Promise<CallDisputePage> {
    const call = await find(token);
    if (!call) return { kind: "not-found" };
    const shown: DisputedCall = {
      when: formatTime(call.startedAt, settings.timeZone),
      caller: call.caller,
      duration: minutesAndSeconds(call.seconds ?? 0),
      charge: formatMinor(call.chargeMinor!, settings.currency),
      service: call.service,
      zip: call.zip,
    };
    const dispute = await disputeOfCall(db, call.id);
    if (dispute) {
      if (dispute.decision === "approved")
        return { kind: "call", call: shown, dispute: { state: "approved", reason: dispute.reason } };
      if (dispute.decision === "denied") {
        return {
          kind: "call",
          call: shown,
          dispute: { state: "denied", reason: dispute.reason, denialReason: dispute.denialReason },
        };
      }
      return { kind: "call", call: shown, dispute: { state: "sent", reason: dispute.reason } };
    }
    const closed = Date.now() > (call.endedAt ?? call.startedAt).getTime() + settings.returnWindowDays * 86_400_000;
    return { kind: "call", call: shown, dispute: closed ? { state: "window-closed" } : { state: "open", error } };
  }

  return {
    page: (token: string) => page(token),

    /** "Send dispute": a listed reason, within the window, once per call. */
    async dispute(token: string, form: FormData): Promise<CallDisputePage> {
      const call = await find(token);
      if (!call) return { kind: "not-found" };
      const checked = validateReturn(form);
      if (!checked.ok) return page(token, checked.error);
      await requestCallDispute(settings.run, {
        callId: call.id,
        partnerId: call.partnerId!,
        chargedAt: call.endedAt ?? call.startedAt,
        windowDays: settings.returnWindowDays,
        request: checked.request,
      });
      return page(token);
    },
  };
}

export type CallDisputes = ReturnType<typeof createCallDisputes>;
