import * as z from "zod/mini";

/**
 * The two lead payloads, shared by the browser (validation before sending) and the server (the
 * only gate before storage). zod/mini keeps the contact page's script small.
 */

export const LEAD_LIMITS = {
  personName: 60,
  optOutName: 120,
  email: 254,
  phone: 25,
  zip: 5,
  service: 200,
  message: 5000,
  optOutMessage: 2000,
} as const;

/**
 * A control character (C0, DEL or C1) other than tab, CR and LF, or a lone UTF-16 surrogate. None is
 * text a person types, PostgreSQL stores neither NUL nor a lone surrogate verbatim, and the rest can
 * hide or mangle text in an email. Line breaks are refused separately, in single-line fields only.
 */
const CONTROL_OR_BROKEN = /[^\P{Cc}\t\n\r]|\p{Cs}/u;
const LINE_BREAK = /[\r\n\u2028\u2029]/;
/** A phone number as people write it: digits, spaces, brackets, dots and dashes, with an optional leading +. */
export const PHONE_SHAPE = /^\+?[0-9 ().-]+$/;

function singleLine(label: string, min: number, max: number, tooShort: string) {
  return z.string(`${label} is required`).check(
    z.trim(),
    z.minLength(min, tooShort),
    z.maxLength(max, `${label} must be at most ${max} characters`),
    z.refine((value) => !LINE_BREAK.test(value), `${label} must be a single line`),
    z.refine((value) => !CONTROL_OR_BROKEN.test(value), `${label} contains characters we cannot accept`),
  );
}

function multiLine(label: string, min: number, max: number) {
  return z.string(`${label} is required`).check(
    z.trim(),
    z.minLength(min, `${label} is required`),
    z.maxLength(max, `${label} must be at most ${max} characters`),
    z.refine((value) => !CONTROL_OR_BROKEN.test(value), `${label} contains characters we cannot accept`),
  );
}

const EMAIL_MESSAGE = "Please enter a valid email address";

const email = z.pipe(
  z.string(EMAIL_MESSAGE).check(z.trim(), z.maxLength(LEAD_LIMITS.email, EMAIL_MESSAGE)),
  z.email(EMAIL_MESSAGE),
);

function countDigits(value: string): number {
  return value.replace(/\D/g, "").length;
}

const phone = z.string("Phone number is required").check(
  z.trim(),
  z.minLength(1, "Phone number is required"),
  z.maxLength(LEAD_LIMITS.phone, "Please enter a valid phone number"),
  z.regex(PHONE_SHAPE, "Please enter a valid phone number"),
  z.refine((value) => countDigits(value) >= 7 && countDigits(value) <= 15, "Please enter a valid phone number"),
);

/** The visitor's ZIP code: optional (blank is none), else five digits. */
const zip = z.optional(
  z.string().check(
    z.trim(),
    z.refine((value) => value === "" || /^\d{5}$/.test(value), "Please enter a 5-digit ZIP code, like 10001"),
  ),
);

const contactRequestSchema = z.strictObject({
  firstName: singleLine("First name", 1, LEAD_LIMITS.personName, "First name is required"),
  lastName: singleLine("Last name", 1, LEAD_LIMITS.personName, "Last name is required"),
  email,
  phone,
  zip,
  service: singleLine("Service needed", 1, LEAD_LIMITS.service, "Service needed is required"),
  message: multiLine("Additional details", 1, LEAD_LIMITS.message),
});

const optOutRequestSchema = z.strictObject({
  name: singleLine("Name", 2, LEAD_LIMITS.optOutName, "Name must be at least 2 characters"),
  email,
  message: z.optional(multiLine("Additional information", 0, LEAD_LIMITS.optOutMessage)),
  type: z.literal("opt-out"),
});

export type ContactRequest = z.infer<typeof contactRequestSchema>;
export type OptOutRequest = z.infer<typeof optOutRequestSchema>;
export type LeadKind = "contact" | "opt-out";

/** A bot trap: a field people never see or fill in. Not part of either payload. */
/** The lead endpoint the site has always had: the pages' scripts post JSON here, exactly as an outside client would. */
export const LEAD_ENDPOINT = "/functions/v1/send-contact-email";

export const HONEYPOT_FIELD = "website";

/**
 * A submission id makes sending one lead twice (a retry, a double click, a reloaded result page) store and
 * mail it once. Scripts send it in this header; a form posted without them, in the hidden field below.
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const SUBMISSION_ID_FIELD = "submissionId";
/** A UUID fits, as does any id of up to 64 URL-safe characters. */
export const SUBMISSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A fresh submission id: 128 random bits, hex. getRandomValues also works where randomUUID does not (plain http). */
export function newSubmissionId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** One message per field, the first problem found; problems not tied to a field are left out. */
export type FieldErrors = Partial<Record<string, string>>;

export type LeadValidation<T> =
  { success: true; data: T } | { success: false; fieldErrors: FieldErrors; unknownFields: string[] };

function validate<T>(schema: z.ZodMiniType<T>, input: unknown): LeadValidation<T> {
  const result = z.safeParse(schema, input);
  if (result.success) return { success: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  const unknownFields: string[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") unknownFields.push(...issue.keys);
    const field = issue.path[0];
    if (typeof field === "string" && issue.path.length === 1) fieldErrors[field] ??= issue.message;
  }
  return { success: false, fieldErrors, unknownFields };
}

export function validateContactRequest(input: unknown): LeadValidation<ContactRequest> {
  return validate(contactRequestSchema, input);
}

export function validateOptOutRequest(input: unknown): LeadValidation<OptOutRequest> {
  return validate(optOutRequestSchema, input);
}
