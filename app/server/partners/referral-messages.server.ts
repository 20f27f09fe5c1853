import {
  serviceForMessages,
  visitorTextForMessages,
  type EmailToSend,
  type MessageToSend,
} from "../outbox/index.server.ts";
import { escapeHtml } from "../../lib/escape-html.ts";
import type { ReferralJob } from "../leads/index.server.ts";

/**
 * What a partner is sent: the offer (the job without the visitor's contact details, and the link to answer
 * it), and, to the partner who accepts, the visitor's contact details.
 */

export interface ReferralMessageSettings {
  companyName: string;
  /** The operator's address, for replies. */
  replyTo: string;
  tokenHours: number;
}

interface Recipient {
  name: string;
  email: string;
  phone: string;
}

/**
 * The job as a partner may see it before accepting: service, ZIP when known, first name and message. What the
 * visitor typed has its links removed: the only link a partner is sent is the operator's.
 */
export function jobRows(job: ReferralJob): [label: string, value: string][] {
  const withoutLinks = (text: string) =>
    text
      .split("\n")
      .map((line) => visitorTextForMessages(line, 2_000))
      .join("\n");
  return [
    ["Service", withoutLinks(job.service)],
    ...(job.zip ? ([["ZIP", job.zip]] as [string, string][]) : []),
    ["First name", withoutLinks(job.firstName)],
    ["Message", withoutLinks(job.message)],
  ];
}

/** The visitor's contact details, for the partner who has the job. */
export function contactRows(job: ReferralJob): [label: string, value: string][] {
  return [
    ["Name", `${job.firstName} ${job.lastName}`],
    ["Phone", job.phone],
    ["Email", job.email],
  ];
}

function render(paragraphs: string[], rows: [string, string][]): { text: string; html: string } {
  const text = `${paragraphs.join("\n\n")}\n\n${rows.map(([label, value]) => `${label}: ${value}`).join("\n")}\n`;
  const table = rows
    .map(
      ([label, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(label)}</th>` +
        `<td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    )
    .join("");
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#111">${paragraphs
    .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
    .join("")}<table cellpadding="0" cellspacing="0">${table}</table></body></html>`;
  return { text, html };
}

/** What accepting costs, as the offer says it: "Fee if you accept: $55.00". */
export const feeLine = (fee: string) => `Fee if you accept: ${fee}`;

export function offerEmail(
  partner: Recipient,
  job: ReferralJob,
  link: string,
  settings: ReferralMessageSettings,
  /** The partner's fee for this job, formatted ("$55.00"). */
  fee: string,
): EmailToSend {
  const service = serviceForMessages(job.service);
  const body = render(
    [
      `Hello ${partner.name},`,
      `${settings.companyName} has a job for you (${service}). Open the link below to accept or decline it; the first partner to accept gets the customer's contact details.`,
      `${feeLine(fee)}.`,
      `Accept or decline:\n${link}`,
      `Answer within ${settings.tokenHours} hours: the link takes one answer.`,
    ],
    jobRows(job),
  );
  return {
    purpose: "referral_offer",
    to: partner.email,
    replyTo: settings.replyTo,
    subject: `New job from ${settings.companyName}: ${service}${job.zip ? ` in ${job.zip}` : ""}`,
    ...body,
  };
}

/**
 * A partner's phone number as Twilio takes it (E.164): written with a leading +, or a 10-digit US number
 * (with or without the leading 1); null when it is neither, and the partner gets the email only.
 */
export function textableNumber(phone: string): string | null {
  const digits = phone.replace(/\D/g, "");
  if (phone.trim().startsWith("+")) return /^[1-9]\d{6,14}$/.test(digits) ? `+${digits}` : null;
  if (/^[2-9]\d{9}$/.test(digits)) return `+1${digits}`;
  if (/^1[2-9]\d{9}$/.test(digits)) return `+${digits}`;
  return null;
}

/** The offer as a text message, or null when the partner's number cannot take one. */
export function offerText(
  partner: Recipient,
  job: ReferralJob,
  link: string,
  companyName: string,
  fee: string,
): MessageToSend | null {
  const to = textableNumber(partner.phone);
  if (!to) return null;
  const where = job.zip ? ` in ${job.zip}` : "";
  return {
    channel: "sms",
    purpose: "referral_offer",
    // The real link alone on the last line: nothing the visitor typed stands next to it.
    payload: {
      to,
      body: `${companyName}: new job${where}: ${serviceForMessages(job.service)}.\n${feeLine(fee)}.\nAccept or decline:\n${link}`,
    },
  };
}

export function acceptedEmail(
  partner: Recipient,
  job: ReferralJob,
  settings: ReferralMessageSettings,
  /** What accepting charged, formatted ("$55.00"). */
  charged: string,
): EmailToSend {
  const body = render(
    [
      `Hello ${partner.name},`,
      `The job is yours. Please call ${job.firstName} as soon as you can.`,
      `Charged: ${charged}, on your next monthly statement.`,
    ],
    [...contactRows(job), ...jobRows(job).filter(([label]) => label !== "First name")],
  );
  return {
    purpose: "referral_accepted",
    to: partner.email,
    replyTo: settings.replyTo,
    subject: `The job is yours: ${serviceForMessages(job.service)}, ${visitorTextForMessages(`${job.firstName} ${job.lastName}`, 80)}`,
    ...body,
  };
}
