/** Partner plumbers and the referrals of leads to them: the console's partner list, offers, links and answers. */
export { validatePartner } from "./partner-form.server.ts";
export {
  addPartner,
  editPartner,
  findPartner,
  listPartners,
  referralCandidates,
  setPartnerActive,
  setPartnerPaused,
  activePartnerWithEmail,
  pricedPartnerExists,
} from "./partners.server.ts";
export { callablePartners } from "./available-partners.server.ts";
export { referralToken, verifyReferralToken } from "./referral-token.server.ts";
export { textableNumber } from "./referral-messages.server.ts";
export { routeCallsOn, routingSettings, saveRoutingSettings, validateRoutingForm } from "./partner-settings.server.ts";
export { createReferrals, type Referrals, type ReferralPage } from "./referrals.server.ts";
export { leadReferrals } from "./lead-referrals.server.ts";
export { sweepReferrals } from "./referral-timeouts.server.ts";
export { partnersPage, referralsPage } from "./read-api-pages.server.ts";
export { createAutoReferrals, type AutoReferrals } from "./auto-referrals.server.ts";
export { partnerLinkKey, startReferrals } from "./start.server.ts";
