import { escapeHtml } from "~/lib/escape-html.ts";
import { formatTime } from "~/lib/operator-time.ts";
import type { EmailToSend } from "../outbox/index.server.ts";
import { describeAttribution, type LeadAttribution } from "../leads/index.server.ts";

/** The outbox purpose of missed-call emails, by which they are purged with the calls. */
export const MISSED_CALL_PURPOSE = "missed_call";

export interface MissedCallEmailSettings {
  leadsEmailTo: string;
  siteUrl: string;
  timeZone: string;
}

/**
 * A missed call tells the operator who called, on which number, and from which campaign, to call them back. The
 * campaign is visitor-supplied text: it is in the body, escaped, never in the subject.
 */
export function missedCallEmail(
  call: { caller: string; called: string; startedAt: Date; how: string; attribution: LeadAttribution },
  settings: MissedCallEmailSettings,
): EmailToSend {
  const rows: [string, string][] = [
    ["Caller", call.caller],
    ["Number called", call.called],
    ["When", formatTime(call.startedAt, settings.timeZone)],
    ["What happened", call.how],
    ...describeAttribution(call.attribution),
  ];
  const link = `${settings.siteUrl}/admin/calls`;
  const intro = "A call was missed: call the caller back. Any voicemail they leave is on the Calls page.";
  return {
    purpose: MISSED_CALL_PURPOSE,
    to: settings.leadsEmailTo,
    replyTo: null,
    subject: `Missed call from ${call.caller}`,
    text: `${intro}\n\n${rows.map(([label, value]) => `${label}: ${value}`).join("\n")}\n\nAll calls: ${link}\n`,
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#111"><p>${intro}</p><table>${rows
      .map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
      .join("")}</table><p><a href="${escapeHtml(link)}">All calls</a></p></body></html>`,
  };
}
