import type { RunStatement } from "../db/index.server.ts";
import { emailRow, messageRow, queueEmailsCte, queueMessagesCte } from "../outbox/index.server.ts";
import { claimUnansweredLeadCte, findUnansweredLeads } from "../leads/index.server.ts";
import { operatorAlert, type AlertSettings } from "./operator-alert.server.ts";

/**
 * A lead still New that no operator has opened within ALERT_ESCALATE_MINUTES is escalated once: the claim
 * and the alert are one statement, so of several instances one wins the lead, and it is alerted exactly once.
 */

const ESCALATE = `WITH ${claimUnansweredLeadCte({ id: "$1", minutes: "$2" })},
${queueEmailsCte({ rows: "$3", request: { column: "contact", from: "claimed" } })},
${queueMessagesCte({ rows: "$4", from: "claimed" })}
SELECT count(*)::int AS escalated FROM claimed`;

export async function escalateUnansweredLeads(
  run: RunStatement,
  settings: AlertSettings & { escalateMinutes: number; messageIdDomain: string },
): Promise<number> {
  let escalated = 0;
  for (const lead of await findUnansweredLeads(run, settings.escalateMinutes)) {
    const alert = operatorAlert(settings, {
      purpose: "unanswered_lead_alert",
      headline: "Unanswered lead",
      explanation: `A lead has waited ${settings.escalateMinutes} minutes: it is still New and no operator has opened it.`,
      leadId: lead.id,
      service: lead.service,
    });
    const [row] = await run<{ escalated: number }>("alerts_escalate", ESCALATE, [
      lead.id,
      settings.escalateMinutes,
      JSON.stringify(alert.emails.map((email) => emailRow(email, settings.messageIdDomain))),
      JSON.stringify(alert.messages.map(messageRow)),
    ]);
    escalated += row?.escalated ?? 0;
  }
  return escalated;
}
