/** Why a partner may return an accepted lead for a credit: the choices of "Reason" on their referral page. */
export const RETURN_REASONS = [
  "Could not reach the customer",
  "Wrong number",
  "Outside my area",
  "Not a plumbing job",
  "Already had this customer",
  "Other",
] as const;
