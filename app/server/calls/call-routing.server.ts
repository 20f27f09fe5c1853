import { serviceOfLandingPage } from "~/content/partner-services.ts";
import { zonedInstant, wallClock } from "~/lib/operator-time.ts";
import type { RunStatement } from "../db/index.server.ts";
import { beginRoute, callRoute, type CallRoute } from "./call-route.server.ts";
import { endPartnerCall, type PartnerCallEnded } from "./partner-call-end.server.ts";
import {
  queuePartnerCallNotice,
  type PartnerCallNoticeSettings,
  type PartnerContact,
} from "./partner-call-notice.server.ts";
import {
  answerOffer,
  missOffer,
  offerOf,
  offerToNextPartner,
  ringingOffer,
  takeOffer,
  type CallPartner,
  type RingingOffer,
} from "./ring-tree.server.ts";
import {
  askForZip,
  forwardCall,
  hangUp,
  nothingToDo,
  offerVoicemail,
  ringPartner,
  whisper,
  WHISPER_SECONDS,
  type CallbackUrls,
} from "./twiml.server.ts";

/**
 * A call routed to partners, step by step as Twilio reports it: the ZIP (the caller's digits when asked, else
 * Twilio's FromZip), the service (the landing page of the visit shown the number), then each free partner in turn,
 * dialled with a whisper only a 1 answers; then CALL_FORWARD_TO, then voicemail. Each step reads the call's route
 * from the database, so any instance takes it, after a restart too. The caller waits at most a minute in all.
 */

/** Where the partners who may take a call come from (the partners module), and whether calls are routed at all. */
export interface CallPartners {
  /** "Route calls to partners" is on. */
  routingOn(): Promise<boolean>;
  /** Active, taking calls, not paused, within their hours, serving the ZIP and (when known) the service. */
  available(zip: string, service: string | null): Promise<CallPartner[]>;
  /** Where the partner is told of a call they took. */
  contact(partnerId: string): Promise<PartnerContact | null>;
  /** The signed link by which the partner disputes a charged call. */
  disputeLink(callId: string): string;
}

export interface CallRoutingSettings extends PartnerCallNoticeSettings {
  forwardTo: string;
  recording: boolean;
  askZip: boolean;
  ringSeconds: number;
  treeSize: number;
}

/** The URLs of the steps (signed by Twilio like every webhook), each naming its call's offer. */
export interface RoutingUrls extends CallbackUrls {
  zip(attempt: 1 | 2): string;
  ring(offerId: string): string;
  whisper(offerId: string): string;
  whisperDigit(offerId: string): string;
}

/** TwiML for Twilio; `unknown`: the step names a call or offer that does not exist, and nothing changed. */
export type RoutingStep = { kind: "twiml"; twiml: string } | { kind: "unknown" };

/** The longest the caller waits, from the ZIP to a person or the voicemail prompt. */
const CALLER_WAIT_SECONDS = 60;
/** A partner, or CALL_FORWARD_TO, rings at least this long, or not at all. */
const SHORTEST_RING_SECONDS = 5;
/** CALL_FORWARD_TO rings at most this long, as before routing. */
const FORWARD_SECONDS = 20;
const ZIP = /^\d{5}$/;

const twiml = (text: string): RoutingStep => ({ kind: "twiml", twiml: text });

export function createCallRouting(
  run: RunStatement,
  partners: CallPartners,
  settings: CallRoutingSettings,
  hooks: {
    urls: RoutingUrls;
    /** Nobody took the call and no time is left to ring CALL_FORWARD_TO: it is recorded missed, as a Dial's would be. */
    onNobodyAnswered(callSid: string): Promise<void>;
    /** A partner's call ended and was recorded (and charged when billable). */
    onPartnerCallEnded(ended: PartnerCallEnded): void;
    /** The partner's email (and text) about their call was queued. */
    onNoticeQueued(): void;
  },
) {
  const { urls } = hooks;
  const validZip = (zip: string | undefined) => (zip !== undefined && ZIP.test(zip) ? zip : null);

  const dial = (offer: RingingOffer, timeoutSeconds: number, noticeGiven: boolean) =>
    ringPartner(
      { phone: offer.phone, whisper: urls.whisper(offer.id), action: urls.ring(offer.id), timeoutSeconds },
      { recording: settings.recording, noticeGiven, urls },
    );

  const secondsLeft = (call: CallRoute) =>
    CALLER_WAIT_SECONDS - Math.ceil((Date.now() - (call.routedAt ?? new Date()).getTime()) / 1000);

  /** The next partner free to take the call, else CALL_FORWARD_TO for the time left, else voicemail. */
  async function next(callSid: string, call: CallRoute, noticeGiven: boolean): Promise<RoutingStep> {
    const left = secondsLeft(call);
    // A partner who answers late still leaves the whisper's time and a last ring before the caller's minute is up.
    const ring = Math.min(settings.ringSeconds, left - WHISPER_SECONDS - SHORTEST_RING_SECONDS);
    if (ring >= SHORTEST_RING_SECONDS && call.zip) {
      const now = new Date();
      const clock = wallClock(now, settings.timeZone);
      const today = `${clock.year}-${String(clock.month).padStart(2, "0")}-${String(clock.day).padStart(2, "0")}`;
      const offer = await offerToNextPartner(run, call.id, await partners.available(call.zip, call.service), {
        treeSize: settings.treeSize,
        dayStartedAt: zonedInstant(today, 0, settings.timeZone),
      });
      if (offer) return twiml(dial(offer, ring, noticeGiven || offer.position > 1));
    }
    if (left >= SHORTEST_RING_SECONDS) {
      return twiml(
        forwardCall(settings.forwardTo, settings.recording, urls, {
          timeoutSeconds: Math.min(FORWARD_SECONDS, left),
          noticeGiven: true,
        }),
      );
    }
    await hooks.onNobodyAnswered(callSid);
    return twiml(offerVoicemail(urls));
  }

  /** Routing begins with the ZIP found (for a call not routed yet); without one the call is forwarded as before. */
  async function route(callSid: string, call: CallRoute, zip: string | null, noticeGiven: boolean) {
    if (!zip) return twiml(forwardCall(settings.forwardTo, settings.recording, urls, { noticeGiven }));
    const { route: routed, began } = await beginRoute(run, call.id, {
      zip,
      service: serviceOfLandingPage(call.landingPath),
    });
    if (!routed.ringing) return twiml(hangUp());
    // Routing began with this step: no partner rings for the call yet (a repeat racing it meets the tree's places).
    return began ? next(callSid, routed, noticeGiven) : resume(callSid, routed, noticeGiven);
  }

  /** A step Twilio repeats finds the partner already ringing, and dials them again rather than another. */
  async function resume(callSid: string, call: CallRoute, noticeGiven: boolean): Promise<RoutingStep> {
    const ringing = await ringingOffer(run, call.id);
    if (ringing) return twiml(dial(ringing, Math.max(SHORTEST_RING_SECONDS, settings.ringSeconds), true));
    return next(callSid, call, noticeGiven);
  }

  return {
    /** Whether a new call is routed: the setting, read at each call. */
    routingOn: () => partners.routingOn(),

    /** A new call, already logged (its route as logged): asked for the ZIP, or routed with Twilio's FromZip. */
    async incoming(callSid: string, logged: CallRoute | null, fromZip: string | undefined): Promise<RoutingStep> {
      const call = logged ?? (await callRoute(run, callSid));
      if (!call) return { kind: "unknown" };
      if (call.routedAt) return resume(callSid, call, true);
      if (settings.askZip) return twiml(askForZip(urls.zip(1), settings.recording));
      return route(callSid, call, validZip(fromZip), false);
    },

    /** The caller's digits for the ZIP: five digits route the call; anything else is asked once more, then skipped. */
    async zipEntered(
      callSid: string,
      attempt: 1 | 2,
      digits: string | undefined,
      fromZip: string | undefined,
    ): Promise<RoutingStep> {
      const call = await callRoute(run, callSid);
      if (!call) return { kind: "unknown" };
      if (!call.ringing) return twiml(hangUp());
      if (call.routedAt) return resume(callSid, call, true);
      const entered = validZip(digits);
      if (!entered && attempt === 1) return twiml(askForZip(urls.zip(2), false));
      return route(callSid, call, entered ?? validZip(fromZip), true);
    },

    /** The partner picked up: the whisper; a step for an offer that is over ends their leg. */
    async partnerAnswered(offerId: string): Promise<RoutingStep> {
      const answered = await answerOffer(run, offerId);
      if (answered.kind === "unknown") return { kind: "unknown" };
      if (answered.kind === "over") return twiml(hangUp());
      return twiml(whisper({ companyName: settings.companyName, ...answered.value }, urls.whisperDigit(offerId)));
    },

    /** Only a 1 connects the caller; any other key, or none, ends the partner's leg. */
    async partnerPressed(offerId: string, digits: string | undefined): Promise<RoutingStep> {
      if (digits !== "1") {
        const offer = await offerOf(run, offerId);
        if (!offer) return { kind: "unknown" };
        await missOffer(run, offerId, "Did not press 1");
        return twiml(hangUp());
      }
      const taken = await takeOffer(run, offerId);
      if (taken.kind === "unknown") return { kind: "unknown" };
      // The whisper's document ends and Twilio connects the two; an offer that is over ends the partner's leg.
      return twiml(taken.kind === "ok" ? nothingToDo() : hangUp());
    },

    /**
     * The partner's Dial ended: a taken call is over (and charged when billable); otherwise the partner missed it
     * and the next is dialled.
     */
    async partnerDialEnded(
      offerId: string,
      callSid: string,
      dial: { status: string; seconds: number | null },
    ): Promise<RoutingStep> {
      const offer = await offerOf(run, offerId);
      if (!offer || offer.callSid !== callSid) return { kind: "unknown" };
      if (offer.status === "taken" || offer.status === "ended") {
        if (offer.status === "taken") {
          const ended = await endPartnerCall(run, offerId, dial.seconds ?? 0, settings);
          if (ended) hooks.onPartnerCallEnded(ended);
        }
        // Queued once; a step repeated after a failure here queues it then.
        if (await queuePartnerCallNotice(run, offer.callId, partners, settings)) hooks.onNoticeQueued();
        return twiml(hangUp());
      }
      if (offer.status === "ringing") await missOffer(run, offerId, missedBecause(dial.status));
      const call = await callRoute(run, callSid);
      if (!call?.ringing || dial.status === "canceled") return twiml(hangUp());
      return resume(callSid, call, true);
    },
  };
}

/** The Calls page's words for a partner's Dial that ended without a 1. */
function missedBecause(dialStatus: string): string {
  switch (dialStatus) {
    case "busy":
      return "Busy";
    case "no-answer":
      return "No answer";
    case "failed":
      return "Could not be reached";
    case "canceled":
      return "The caller hung up";
    default:
      return "Did not press 1";
  }
}
