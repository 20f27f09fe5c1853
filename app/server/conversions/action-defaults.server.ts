/** The conversion actions: what counts as a conversion for the ad platforms, as the operator names and values them. */

export const conversionActionKeys = ["lead", "booked", "referral", "call"] as const;
export type ConversionActionKey = (typeof conversionActionKeys)[number];

export interface ConversionAction {
  action: ConversionActionKey;
  /** Must match the conversion action's name in the ad platform. */
  name: string;
  /** In cents of CONVERSION_CURRENCY; a booked job's own job value, and a referral's fee, replace it. */
  defaultValueCents: number;
  enabled: boolean;
}

/** What each action is, for the settings page, whatever the operator names it. */
export const conversionActionMeanings: Record<ConversionActionKey, string> = {
  lead: "Lead: a contact request was stored",
  booked: "Booked job: the lead's status was set to Booked",
  referral: "Referral accepted: a partner accepted the lead's referral; its value is the fee charged",
  call: "Answered call: a call was answered and lasted at least 60 seconds",
};

/** Each action until the operator changes it: its usual name, no value, switched on. */
export const defaultConversionActions: Record<ConversionActionKey, ConversionAction> = {
  lead: { action: "lead", name: "Lead", defaultValueCents: 0, enabled: true },
  booked: { action: "booked", name: "Booked job", defaultValueCents: 0, enabled: true },
  referral: { action: "referral", name: "Referral accepted", defaultValueCents: 0, enabled: true },
  call: { action: "call", name: "Answered call", defaultValueCents: 0, enabled: true },
};

/** The shortest answered call that counts as a conversion. */
export const ANSWERED_CALL_MIN_SECONDS = 60;
