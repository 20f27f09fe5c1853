/**
 * Conversions: the actions sent back to the ad platforms, the downloads of their import files (kept with their
 * contents), ad spend, the cost and funnel per source and campaign, and the weekly digest.
 */
export { conversionActionMeanings } from "./action-defaults.server.ts";
export { campaignReport, campaignTables, type CampaignRow, type CampaignSums } from "./campaign-report.server.ts";
export { adPlatforms } from "./conversion-rows.server.ts";
export {
  createDownload,
  findDownload,
  listDownloads,
  purgeExpiredDownloads,
  type ConversionSources,
} from "./downloads.server.ts";
export { readConversionActions, saveConversionActions, validateConversionActions } from "./settings.server.ts";
export { parseSpendFile, recentSpend, saveSpend, validateSpend } from "./spend.server.ts";
export { sendDueDigest, type DigestSettings } from "./weekly-digest.server.ts";
export { readBoundedForm } from "./bounded-form.server.ts";
export { rollScheduledFetchPassword, scheduledFetch, scheduledFetchCredentials } from "./scheduled-fetch.server.ts";
export { startDigest } from "./start.server.ts";
