/** Leads, as other modules may use them. */
export { newestLeadByPhone, phoneKey } from "./leads-by-phone.server.ts";
export { describeAttribution, takeAttribution, type LeadAttribution } from "./attribution.server.ts";
export { csvCell } from "./exports.server.ts";
