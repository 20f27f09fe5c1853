import { serviceForMessages, type EmailToSend, type MessageToSend } from "../outbox/index.server.ts";
import { escapeHtml } from "../../lib/escape-html.ts";
import type { TextMessage } from "./twilio-sms.server.ts";

/**
 * An alert to the operator about a lead that waits: an email to LEADS_EMAIL_TO and, when texts are
 * configured, a text to ALERT_SMS_TO. It says what waits and the service asked for, with the lead's console
 * link, never the visitor's contact details.
 */

export interface AlertSettings {
  companyName: string;
  leadsEmailTo: string;
  siteUrl: string;
  /** Where alert texts go; undefined when texts are not configured. */
  alertSmsTo: string | undefined;
}

export interface OperatorAlert {
  purpose: string;
  /** "Unanswered lead", "Unanswered referral". */
  headline: string;
  explanation: string;
  leadId: string;
  service: string;
}

export function operatorAlert(
  settings: AlertSettings,
  alert: OperatorAlert,
): { emails: EmailToSend[]; messages: MessageToSend[] } {
  const link = `${settings.siteUrl}/admin/leads/${alert.leadId}`;
  const service = serviceForMessages(alert.service);
  const text: TextMessage | null = settings.alertSmsTo
    ? { to: settings.alertSmsTo, body: `${settings.companyName}: ${alert.headline} (${service}).\n${link}` }
    : null;
  return {
    emails: [
      {
        purpose: alert.purpose,
        to: settings.leadsEmailTo,
        replyTo: null,
        subject: `${alert.headline}: ${service}`,
        text: `${alert.explanation}\n\nService needed: ${alert.service}\n\nOpen the lead: ${link}\n`,
        html: `<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#111"><p>${escapeHtml(
          alert.explanation,
        )}</p><p>Service needed: ${escapeHtml(alert.service)}</p><p><a href="${escapeHtml(link)}">Open the lead</a></p></body></html>`,
      },
    ],
    messages: text ? [{ channel: "sms", purpose: alert.purpose, payload: text }] : [],
  };
}
