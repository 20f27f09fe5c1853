import { TEXT_MAX_LENGTH } from "~/lib/console-limits.ts";
import type { Database, RunStatement } from "../db/index.server.ts";
import { log } from "../log.server.ts";
import { receiveText, type IncomingText } from "./inbound.server.ts";
import { queueText, queueTextBack, recordTextStatus } from "./outgoing.server.ts";
import { automaticTextSendsAt, inQuietHours } from "./quiet-hours.server.ts";
import { callerIdFailed, mobileShaped } from "./text-back-callers.server.ts";
import { helpReplyBody, textBackBody, textBackCapEmail, textBackMessage } from "./text-back.server.ts";
import { customerNumber, threadNumber } from "./threads.server.ts";

export interface TextsSettings {
  db: Database;
  run: RunStatement;
  /** The number texts go out from when the customer never called or texted one of ours (TWILIO_FROM_NUMBER). */
  fromNumber: string;
  companyName: string;
  phoneDisplay: string;
  timeZone: string;
  /** Automatic texts wait for 08:00 outside 08:00–21:00 (TEXT_QUIET_HOURS). */
  quietHours: boolean;
  /** A missed call gets a text back (MISSED_CALL_TEXT). */
  missedCallText: boolean;
  /** At most this many text-backs in any hour (MISSED_CALL_TEXT_PER_HOUR); reaching it emails the operator once. */
  textBackCap: { perHour: number; alertTo: string; siteUrl: string; messageIdDomain: string };
  /** The number the customer last called, from the call log. */
  numberCalledBy(customer: string): Promise<string | null>;
  /** A customer's text arrived (for the operators' push alert). */
  onReceived(customer: string): void;
  /** A text or a webhook was queued: the outbox sends it now (or at its time). */
  onQueued(): void;
}

export type SentText =
  | { kind: "queued" }
  | { kind: "invalid"; error: string }
  | { kind: "opted-out" }
  /** Quiet hours: the operator is asked to confirm before texting a customer at night. */
  | { kind: "quiet-hours" };

/** A new text to a number the operator typed: as a thread's, or the number's and the message's errors. */
export type NewText =
  | { kind: "invalid"; errors: { to?: string; body?: string } }
  | ({ customer: string } & Exclude<SentText, { kind: "invalid" }>);

/** Why a text to a number that replied STOP was not sent. */
export const OPTED_OUT_ERROR = "This number replied STOP: it gets no texts until it replies START.";
const MESSAGE_ERROR = `Write a message of 1 to ${TEXT_MAX_LENGTH.toLocaleString("en-US")} characters.`;
const NUMBER_ERROR =
  "Enter a phone number that can get texts, like (555) 010-0123, or with + and the country code outside North America.";

/** A text's message as sent: trimmed, 1 to TEXT_MAX_LENGTH characters; null otherwise. */
function messageOf(body: unknown): string | null {
  const message = typeof body === "string" ? body.trim() : "";
  return message.length === 0 || message.length > TEXT_MAX_LENGTH ? null : message;
}

/** Texts to and from customers: what the webhooks, the call log and the console's pages ask for. */
export function createTexts(settings: TextsSettings) {
  const { db, run } = settings;
  const ourNumberFor = async (customer: string) =>
    (await threadNumber(db, customer)) ?? (await settings.numberCalledBy(customer)) ?? settings.fromNumber;

  /** An operator's text from a thread; in quiet hours only once they confirmed. */
  async function send(text: { customer: string; body: unknown; confirmedQuietHours: boolean }): Promise<SentText> {
    const body = messageOf(text.body);
    if (body === null) return { kind: "invalid", error: MESSAGE_ERROR };
    const now = new Date();
    if (settings.quietHours && inQuietHours(now, settings.timeZone) && !text.confirmedQuietHours) {
      return { kind: "quiet-hours" };
    }
    // The statement that queues it checks the number has not replied STOP: an opted-out number gets nothing.
    const queued = await queueText(run, {
      customer: text.customer,
      ours: await ourNumberFor(text.customer),
      body,
      purpose: "operator_text",
      sendAt: now,
    });
    if (!queued) return { kind: "opted-out" };
    settings.onQueued();
    return { kind: "queued" };
  }

  return {
    /** A customer's text, from Twilio's signed webhook. */
    async receive(text: IncomingText) {
      const received = await receiveText(run, text, helpReplyBody(settings.companyName, settings.phoneDisplay));
      if (received.kind === "stored") {
        settings.onReceived(text.customer);
        if (received.replyQueued || received.webhooksQueued) settings.onQueued();
      }
      return received;
    },

    /** A delivery state of one of our texts, from Twilio's signed status callback. */
    recordStatus: (callback: { textId: string; messageSid: string; status: string }) => recordTextStatus(run, callback),

    /** An operator's text from a thread; in quiet hours only once they confirmed. */
    send,

    /**
     * "New text": a text to a number as the operator wrote it (validated and written as E.164, as a lead's phone is
     * texted), sent as a thread's is, on the number's thread (new, or the one it has).
     */
    async startThread(text: { to: unknown; body: unknown; confirmedQuietHours: boolean }): Promise<NewText> {
      const customer = typeof text.to === "string" ? customerNumber(text.to) : null;
      const body = messageOf(text.body);
      if (!customer || body === null) {
        return {
          kind: "invalid",
          errors: { to: customer ? undefined : NUMBER_ERROR, body: body === null ? MESSAGE_ERROR : undefined },
        };
      }
      const sent = await send({ customer, body, confirmedQuietHours: text.confirmedQuietHours });
      return sent.kind === "invalid" ? { kind: "invalid", errors: { body: sent.error } } : { ...sent, customer };
    },

    /** The text a missed caller gets with this message. */
    textBackPreview: (message: string) => textBackBody(settings.companyName, message),

    /**
     * A missed or voicemail call: one text back within the minute, once per number per 24 hours, within the hourly
     * cap; only to a mobile-shaped number whose caller ID did not fail Twilio's check.
     */
    async textBack(call: { caller: string; called: string; callerVerification: string | null }) {
      if (!settings.missedCallText || !mobileShaped(call.caller) || callerIdFailed(call.callerVerification)) return;
      const now = new Date();
      const { perHour, alertTo, ...alertSettings } = settings.textBackCap;
      const { queued, alerted } = await queueTextBack(
        run,
        {
          customer: call.caller,
          ours: call.called,
          body: textBackBody(settings.companyName, await textBackMessage(db)),
          sendAt: settings.quietHours ? automaticTextSendsAt(now, settings.timeZone) : now,
        },
        { perHour, alertEmails: [textBackCapEmail(perHour, { to: alertTo, ...alertSettings })] },
      );
      if (queued) log.info("missed-call text-back queued");
      if (alerted)
        log.warn(`the missed-call text-backs reached their cap of ${perHour} an hour: the operator is emailed`);
      if (queued || alerted) settings.onQueued();
    },
  };
}

export type Texts = ReturnType<typeof createTexts>;
