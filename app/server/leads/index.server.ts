/** Leads: contact and opt-out requests, from intake to the console's pages, exports and retention. */
export {
  createLeadIntake,
  type LeadChannel,
  type LeadInput,
  type LeadIntake,
  type LeadOutcome,
} from "./intake.server.ts";
export { createLeadStore } from "./store.server.ts";
export { contactRequestsCsv, type ExtraLeadColumn } from "./leads-csv.server.ts";
export { csvCell } from "./csv-cells.server.ts";
export { listInbox, parseInboxQuery, recentRequests } from "./inbox.server.ts";
export { leadDetail } from "./lead-detail.server.ts";
export { leadsPage } from "./leads-page.server.ts";
export { updateLead, validateLeadUpdate } from "./lead-update.server.ts";
export { listOptOuts, markOptOutDone, openOptOutRequests, optOutRequestsCsv } from "./opt-outs.server.ts";
export { CONTACT_RETENTION_DAYS, purgeExpiredLeads } from "./retention.server.ts";
export { leadCounts, openRequestCounts, type OpenRequestCounts } from "./lead-counts.server.ts";
export { sumRecentDays } from "./lead-day-totals.server.ts";
export { newestLeadByPhone, phoneKey, phoneKeySql } from "./leads-by-phone.server.ts";
export { describeAttribution, takeAttribution, type LeadAttribution } from "./attribution.server.ts";
export { claimUnansweredLeadCte, findUnansweredLeads } from "./escalation.server.ts";
export { type ReferralJob, recentLeadsWithZipSql, referralJob } from "./referral-job.server.ts";
export { optedOutOfSharingSql } from "./sharing-opt-out.server.ts";
export { leadEventRows, recordLeadEventsCte, type LeadEvent } from "./lead-events.server.ts";
export { markLeadOpened } from "./lead-opened.server.ts";
export { setLeadZip, validateLeadZip } from "./lead-zip.server.ts";
export { setJobValue } from "./conversion-leads.server.ts";
export { leadOutcomesBySource, type LeadForConversions, leadsForConversions } from "./conversion-leads.server.ts";
