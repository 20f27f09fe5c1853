/** Where an operator is with a contact request; every new request starts as "New". */
export const LEAD_STATUSES = ["New", "Contacted", "Booked", "Closed", "Spam"] as const;

export type LeadStatus = (typeof LEAD_STATUSES)[number];
