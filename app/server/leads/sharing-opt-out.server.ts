import { sqlNames } from "../db/index.server.ts";
import { contactRequests, privacyRequests } from "./schema.server.ts";

const leads = sqlNames(contactRequests);
const optOuts = sqlNames(privacyRequests);

/**
 * Whether the person behind a lead has opted out of the sale or sharing of their information, as an SQL
 * condition: a do-not-sell request from the lead's email address, or Global Privacy Control sent with any of
 * their leads. With `since`, only what arrived after that moment counts (a referral offered before it, with
 * the operator's confirmation, is withdrawn only by what came later). `leadId` and `since` are SQL expressions.
 */
export function optedOutOfSharingSql(leadId: string, since?: string): string {
  const after = (column: string) => (since ? `AND ${column} > ${since}` : "");
  return `EXISTS (SELECT 1 FROM ${leads.table} AS person WHERE person.${leads.id} = ${leadId} AND (
    EXISTS (SELECT 1 FROM ${optOuts.table} AS opt_out
      WHERE lower(opt_out.${optOuts.email}) = lower(person.${leads.email}) AND opt_out.${optOuts.kind} = 'opt-out'
        ${after(`opt_out.${optOuts.receivedAt}`)})
    OR EXISTS (SELECT 1 FROM ${leads.table} AS signal
      WHERE lower(signal.${leads.email}) = lower(person.${leads.email}) AND signal.${leads.globalPrivacyControl}
        ${after(`signal.${leads.receivedAt}`)})))`;
}
