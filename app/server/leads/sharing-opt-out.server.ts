import { sqlNames } from "../db/index.server.ts";
import { contactRequests, privacyRequests } from "./schema.server.ts";

const leads = sqlNames(contactRequests);
const optOuts = sqlNames(privacyRequests);

/**
 * The two ways a person with an email address opts out of the sale or sharing of their information, each an SQL
 * `EXISTS`: a do-not-sell request from that address, or Global Privacy Control sent with any of their leads (both
 * found by `lower(email)`'s index). With `since`, only what arrived after that moment counts. `email` and `since`
 * are SQL expressions.
 */
function optOutsOf(email: string, since?: string): [string, string] {
  const after = (column: string) => (since ? `AND ${column} > ${since}` : "");
  return [
    `EXISTS (SELECT 1 FROM ${optOuts.table} AS opt_out
      WHERE lower(opt_out.${optOuts.email}) = lower(${email}) AND opt_out.${optOuts.kind} = 'opt-out'
        ${after(`opt_out.${optOuts.receivedAt}`)})`,
    `EXISTS (SELECT 1 FROM ${leads.table} AS signal
      WHERE lower(signal.${leads.email}) = lower(${email}) AND signal.${leads.globalPrivacyControl}
        ${after(`signal.${leads.receivedAt}`)})`,
  ];
}

/** Whether a do-not-sell request came from an email address (an SQL expression), as the console flags a lead. */
export function doNotSellRequestedSql(email: string): string {
  return optOutsOf(email)[0];
}

/**
 * Whether the person behind a lead has opted out of sharing, given the lead's id: a referral offered before
 * `since`, with the operator's confirmation, is withdrawn only by what came later.
 */
export function optedOutOfSharingSql(leadId: string, since?: string): string {
  return `EXISTS (SELECT 1 FROM ${leads.table} AS person WHERE person.${leads.id} = ${leadId}
    AND (${optOutsOf(`person.${leads.email}`, since).join(" OR ")}))`;
}

/**
 * Whether the person with an email address has not opted out of sharing, as `NOT EXISTS … AND NOT EXISTS …`: the
 * form PostgreSQL turns into two anti-joins, so that reading many leads checks them all at once rather than one by
 * one.
 */
export function notOptedOutOfSharingSql(email: string): string {
  return optOutsOf(email)
    .map((exists) => `NOT ${exists}`)
    .join(" AND ");
}
