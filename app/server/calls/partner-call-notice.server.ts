import { escapeHtml } from "~/lib/escape-html.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { sqlNames, type RunStatement } from "../db/index.server.ts";
import { formatMinor } from "../ledger/index.server.ts";
import { emailRow, queueEmailsCte, queueMessagesCte, messageRow, type EmailToSend } from "../outbox/index.server.ts";
import { calls, type CallBilling } from "./schema.server.ts";

/**
 * After a partner's call, the partner is told what it was: the caller's number, how long, what it was charged,
 * and (when charged) the link to dispute it within the return window; by email, and by text when texts are on.
 * Queued once per call: the email's id is the call's, so a step Twilio repeats finds it queued.
 */

/** The outbox purpose of these emails and texts, by which they are purged with the calls. */
export const PARTNER_CALL_PURPOSE = "partner_call";

export interface PartnerCallNoticeSettings {
  companyName: string;
  currency: string;
  timeZone: string;
  billableSeconds: number;
  repeatCallerDays: number;
  returnWindowDays: number;
  messageIdDomain: string;
  /** Texts are sent (TWILIO_FROM_NUMBER is set). */
  texts: boolean;
}

export interface PartnerContact {
  name: string;
  email: string;
  /** E.164, when the partner's number can take a text. */
  textTo: string | null;
}

const c = sqlNames(calls);

const READ = `SELECT ${c.caller} AS caller, ${c.startedAt} AS started_at, ${c.durationSeconds} AS seconds,
  ${c.billing} AS billing, ${c.chargeMinor} AS charge_minor, ${c.partnerId} AS partner_id, ${c.service} AS service,
  ${c.zip} AS zip
FROM ${c.table} WHERE ${c.id} = $1 AND ${c.partnerId} IS NOT NULL`;

const QUEUE = `WITH ${queueEmailsCte({ rows: "$1" })}, ${queueMessagesCte({ rows: "$2" })} SELECT 1`;

export const minutesAndSeconds = (seconds: number) =>
  `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;

function chargeWords(
  call: { billing: CallBilling; chargeMinor: number | null },
  settings: PartnerCallNoticeSettings,
): string {
  switch (call.billing) {
    case "billable":
      return formatMinor(call.chargeMinor ?? 0, settings.currency);
    case "short":
      return `Not charged: shorter than ${settings.billableSeconds} seconds`;
    case "repeat-caller":
      return `Not charged: the same caller within ${settings.repeatCallerDays} days`;
    case "no-fee":
      return "Not charged: no fee per call";
  }
}

function noticeEmail(
  partner: PartnerContact,
  rows: [string, string][],
  disputeLink: string | null,
  settings: PartnerCallNoticeSettings,
): EmailToSend {
  const intro = `Hello ${partner.name},\n\nThank you for taking a ${settings.companyName} call.`;
  const dispute = disputeLink
    ? `Something wrong with this call? Dispute this call within ${settings.returnWindowDays} days: ${disputeLink}`
    : "";
  const text = `${intro}\n\n${rows.map(([label, value]) => `${label}: ${value}`).join("\n")}\n${dispute ? `\n${dispute}\n` : ""}\n${settings.companyName}\n`;
  return {
    purpose: PARTNER_CALL_PURPOSE,
    to: partner.email,
    replyTo: null,
    subject: `Your ${settings.companyName} call: ${rows.find(([label]) => label === "Charge")![1]}`,
    text,
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#111">${intro
      .split("\n\n")
      .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
      .join("")}<table>${rows
      .map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
      .join("")}</table>${
      disputeLink
        ? `<p><a href="${escapeHtml(disputeLink)}">Dispute this call</a> (within ${settings.returnWindowDays} days)</p>`
        : ""
    }<p>${escapeHtml(settings.companyName)}</p></body></html>`,
  };
}

/** Queues the partner's notice of a call they took; a call already noticed (or no partner's) queues nothing. */
export async function queuePartnerCallNotice(
  run: RunStatement,
  callId: string,
  deps: {
    contact(partnerId: string): Promise<PartnerContact | null>;
    disputeLink(callId: string): string;
  },
  settings: PartnerCallNoticeSettings,
): Promise<boolean> {
  const [call] = await run<{
    caller: string;
    started_at: Date | string;
    seconds: number | null;
    billing: CallBilling | null;
    charge_minor: number | null;
    partner_id: string;
    service: string | null;
    zip: string | null;
  }>("calls_partner_notice_read", READ, [callId]);
  if (!call?.billing) return false;
  const partner = await deps.contact(call.partner_id);
  if (!partner) return false;
  const charge = chargeWords({ billing: call.billing, chargeMinor: call.charge_minor }, settings);
  const rows: [string, string][] = [
    ["Caller", call.caller],
    ["When", formatTime(new Date(call.started_at), settings.timeZone)],
    ["Duration", minutesAndSeconds(call.seconds ?? 0)],
    ...(call.service ? [["Service", call.service] as [string, string]] : []),
    ...(call.zip ? [["ZIP code", call.zip] as [string, string]] : []),
    ["Charge", charge],
  ];
  const disputeLink = call.billing === "billable" ? deps.disputeLink(callId) : null;
  const email = {
    ...emailRow(noticeEmail(partner, rows, disputeLink, settings), settings.messageIdDomain),
    id: callId,
  };
  const texts =
    settings.texts && partner.textTo
      ? [
          messageRow({
            channel: "sms",
            purpose: PARTNER_CALL_PURPOSE,
            // The link alone on the last line.
            payload: {
              to: partner.textTo,
              body: `${settings.companyName}: call from ${call.caller}, ${minutesAndSeconds(call.seconds ?? 0)}. ${charge}.${disputeLink ? `\nDispute this call:\n${disputeLink}` : ""}`,
            },
          }),
        ]
      : [];
  try {
    await run("calls_partner_notice_queue", QUEUE, [JSON.stringify([email]), JSON.stringify(texts)]);
  } catch (error) {
    // The email's id is the call's: a repeated step finds the notice queued already.
    if ((error as { code?: string }).code === "23505") return false;
    throw error;
  }
  return true;
}
