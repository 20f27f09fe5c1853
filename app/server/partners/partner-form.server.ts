import { z } from "zod";
import { PARTNER_SERVICES } from "~/content/partner-services.ts";
import { MAX_PARTNER_ZIPS, parseZipList } from "~/lib/zip-codes.ts";
import { parseAmount } from "../ledger/index.server.ts";
import { MAX_HOURS_LENGTH, parseHours } from "./partner-hours.server.ts";

/** The partner form ("Save partner"): every field checked and size-limited before anything is stored. */

const line = (label: string, max: number) =>
  z
    .string(`Enter the ${label}.`)
    .trim()
    .min(1, `Enter the ${label}.`)
    .max(max, `The ${label} can be at most ${max} characters.`)
    .refine((value) => !/[\r\n]/.test(value), `The ${label} must be one line.`);

/** An amount in the currency, or null when blank (the default applies). */
const optionalAmount = (currency: string) =>
  z.string().transform((text, context) => {
    if (text.trim() === "") return null;
    const parsed = parseAmount(text, currency);
    if (parsed.ok) return parsed.minor;
    context.addIssue({ code: "custom", message: parsed.error });
    return z.NEVER;
  });

const MAX_CALLS_PER_DAY = 1_000;

const partnerSchema = (currency: string) =>
  z.object({
    name: line("name", 120),
    business: line("business", 160),
    phone: line("phone", 40).refine((value) => /^[\d\s()+.-]{7,40}$/.test(value), "Enter a phone number."),
    email: z.email("Enter an email address, like pat@example.com.").max(254, "Enter an email address."),
    services: z
      .array(z.enum(PARTNER_SERVICES as [string, ...string[]], "Choose services from the list."))
      .min(1, "Choose at least one service."),
    zipCodes: z
      .string()
      .max(MAX_PARTNER_ZIPS * 7, "Too many ZIP codes.")
      .transform((text, context) => {
        const parsed = parseZipList(text);
        if ("invalid" in parsed) {
          context.addIssue({ code: "custom", message: `"${parsed.invalid}" is not a 5-digit ZIP code.` });
          return z.NEVER;
        }
        if (parsed.zips.length > MAX_PARTNER_ZIPS) {
          context.addIssue({ code: "custom", message: `At most ${MAX_PARTNER_ZIPS} ZIP codes.` });
          return z.NEVER;
        }
        return parsed.zips;
      }),
    // Blank: the console's default fee.
    feeMinor: optionalAmount(currency),
    // One field per service the site offers; blank: the partner's fee.
    serviceFees: z.array(z.string().max(20, "Enter an amount.")).transform((texts, context) => {
      const fees: Record<string, number> = {};
      for (const [index, text] of texts.entries()) {
        const service = PARTNER_SERVICES[index];
        if (service === undefined || text.trim() === "") continue;
        const parsed = parseAmount(text, currency);
        if (parsed.ok) fees[service] = parsed.minor;
        else context.addIssue({ code: "custom", message: `${service}: ${parsed.error}` });
      }
      return fees;
    }),
    takesCalls: z.boolean(),
    // Blank: the Partners page's default fee per call.
    callFeeMinor: optionalAmount(currency),
    hours: z
      .string("Enter the hours.")
      .max(MAX_HOURS_LENGTH * 2, `The hours can be at most ${MAX_HOURS_LENGTH} characters.`)
      .transform((text, context) => {
        const parsed = parseHours(text);
        if (parsed.ok) return parsed.text;
        context.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }),
    // Blank: no cap.
    callsPerDay: z
      .string()
      .max(20, "Enter a whole number of calls, like 10, or leave it blank for no cap.")
      .transform((text, context) => {
        const trimmed = text.trim();
        if (trimmed === "") return null;
        const calls = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
        if (calls >= 1 && calls <= MAX_CALLS_PER_DAY) return calls;
        context.addIssue({
          code: "custom",
          message: `Enter a whole number of calls from 1 to ${MAX_CALLS_PER_DAY.toLocaleString("en-US")}, or leave it blank for no cap.`,
        });
        return z.NEVER;
      }),
    priority: z.enum(["1", "2", "3"], "Choose a priority: 1, 2 or 3.").transform(Number),
  });

export type PartnerInput = z.infer<ReturnType<typeof partnerSchema>>;
export type PartnerField = keyof PartnerInput;
export type PartnerFormErrors = Partial<Record<PartnerField, string>>;

export function validatePartner(
  form: FormData,
  currency: string,
): { success: true; partner: PartnerInput } | { success: false; errors: PartnerFormErrors } {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const result = partnerSchema(currency).safeParse({
    name: field("name"),
    business: field("business"),
    phone: field("phone"),
    email: field("email")?.trim(),
    services: form.getAll("services").filter((value) => typeof value === "string"),
    zipCodes: field("zipCodes") ?? "",
    feeMinor: field("fee") ?? "",
    serviceFees: PARTNER_SERVICES.map((_, index) => field(`serviceFee${index}`) ?? ""),
    takesCalls: field("takesCalls") === "on",
    callFeeMinor: field("callFee") ?? "",
    hours: field("hours"),
    callsPerDay: field("callsPerDay") ?? "",
    priority: field("priority"),
  });
  if (result.success) return { success: true, partner: result.data };
  const errors: PartnerFormErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0] as PartnerField;
    errors[key] ??= issue.message;
  }
  return { success: false, errors };
}
