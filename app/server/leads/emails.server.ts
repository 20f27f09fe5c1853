import type { ContactRequest, OptOutRequest } from "~/lib/lead-schemas.ts";
import { describeAttribution, type LeadAttribution } from "./attribution.server.ts";
import { escapeHtml } from "../../lib/escape-html.ts";
import { visitorTextForMessages } from "../outbox/index.server.ts";
import { formatDate, formatTime } from "../../lib/operator-time.ts";

/** The emails a lead produces, rendered once when the lead is accepted and stored in the outbox. */

export interface RenderedEmail {
  purpose: "contact_notification" | "opt_out_confirmation" | "opt_out_notification";
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
}

export interface EmailSettings {
  companyName: string;
  leadsEmailTo: string;
  privacyEmail: string;
  consentText: string;
  /** OPERATOR_TIME_ZONE: every date and time an email shows is the operator's, with the zone named on times. */
  timeZone: string;
}

/** Label/value rows as plain text and as an escaped HTML table; multi-line values keep their line breaks. */
function renderRows(rows: [label: string, value: string][]): { text: string; html: string } {
  const text = rows.map(([label, value]) => `${label}: ${value}`).join("\n");
  const html = rows
    .map(
      ([label, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(label)}</th>` +
        `<td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    )
    .join("");
  return { text, html: `<table cellpadding="0" cellspacing="0">${html}</table>` };
}

function htmlDocument(bodyHtml: string): string {
  return `<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#111">${bodyHtml}</body></html>`;
}

const GPC_NOTICE =
  "This visitor's browser sent Global Privacy Control, which counts as an opt-out of the sale or sharing of their personal information. Answer their request, but do not sell or share their details.";

export function contactNotification(
  id: string,
  request: ContactRequest,
  receivedAt: Date,
  settings: EmailSettings,
  globalPrivacyControl: boolean,
  attribution: LeadAttribution,
): RenderedEmail {
  const fullName = `${request.firstName} ${request.lastName}`;
  const intro = [
    "A visitor asked for a free estimate. Reply to this email to answer them.",
    ...(globalPrivacyControl ? [GPC_NOTICE] : []),
  ];
  const rows = renderRows([
    ["Name", fullName],
    ["Email", request.email],
    ["Phone", request.phone],
    ...(request.zip ? [["ZIP code", request.zip] as [string, string]] : []),
    ["Service needed", request.service],
    ["Additional details", request.message],
    ["Received", formatTime(receivedAt, settings.timeZone)],
    ["Request id", id],
    ["Consent shown", settings.consentText],
    ["Global Privacy Control", globalPrivacyControl ? "Yes: do not sell or share" : "No"],
    ...describeAttribution(attribution),
  ]);
  return {
    purpose: "contact_notification",
    to: settings.leadsEmailTo,
    replyTo: request.email,
    subject: `New estimate request from ${visitorTextForMessages(fullName, 80)}${globalPrivacyControl ? " (Global Privacy Control)" : ""}`,
    text: `${intro.join("\n\n")}\n\n${rows.text}\n`,
    html: htmlDocument(`${intro.map((paragraph) => `<p>${paragraph}</p>`).join("")}${rows.html}`),
  };
}

export function optOutEmails(
  id: string,
  request: OptOutRequest,
  receivedAt: Date,
  dueAt: Date,
  settings: EmailSettings,
): [RenderedEmail, RenderedEmail] {
  const received = formatDate(receivedAt, settings.timeZone);
  const due = formatDate(dueAt, settings.timeZone);
  // The confirmation goes to whatever address was typed in, so it repeats nothing else the sender
  // wrote: a stranger's inbox must not become a way to deliver someone's chosen text.
  const confirmationText =
    `Hello,\n\n` +
    `We received your request on ${received} to opt out of the sale or sharing of your personal information. ` +
    `We will process it in accordance with applicable laws, at the latest by ${due}.\n\n` +
    `If you did not make this request, or have questions, reply to this email or write to ${settings.privacyEmail}.\n\n` +
    `${settings.companyName}\n`;
  const confirmationHtml = htmlDocument(
    confirmationText
      .trim()
      .split("\n\n")
      .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
      .join(""),
  );
  const rows = renderRows([
    ["Name", request.name],
    ["Email", request.email],
    ["Additional information", request.message ?? ""],
    ["Received", formatTime(receivedAt, settings.timeZone)],
    ["Due by", due],
    ["Request id", id],
  ]);
  const notice = `An opt-out (Do Not Sell or Share) request arrived. It must be processed by ${due}; mark it done with \`npm run leads -- done <id>\`.`;
  return [
    {
      purpose: "opt_out_confirmation",
      to: request.email,
      replyTo: settings.privacyEmail,
      subject: `We received your opt-out request`,
      text: confirmationText,
      html: confirmationHtml,
    },
    {
      purpose: "opt_out_notification",
      to: settings.privacyEmail,
      replyTo: request.email,
      subject: `Opt-out request from ${visitorTextForMessages(request.name, 80)} (due ${due})`,
      text: `${notice}\n\n${rows.text}\n`,
      html: htmlDocument(`<p>${escapeHtml(notice)}</p>${rows.html}`),
    },
  ];
}
