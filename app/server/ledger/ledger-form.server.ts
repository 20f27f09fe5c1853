import { parseAmount } from "./money.server.ts";

/** The partner page's "Record payment" and "Record adjustment" forms: every field checked before anything is stored. */

type PaymentEntry = { kind: "payment"; amountMinor: number; date: string; method: string; reference: string };
type AdjustmentEntry = { kind: "adjustment"; amountMinor: number; date: string; note: string; partnerNote: string };
type FieldErrors = Partial<Record<"amount" | "date" | "method" | "reference" | "note" | "partnerNote", string>>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function line(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

function checkDate(text: string): string | undefined {
  if (!DATE.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) return "Enter a date, like 2026-11-25.";
  if (new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) !== text) return "Enter a date that exists.";
  return undefined;
}

function checkText(text: string, label: string, max: number, required: boolean): string | undefined {
  if (required && text === "") return `Enter the ${label}.`;
  if (text.length > max) return `The ${label} can be at most ${max} characters.`;
  if (/[\r\n]/.test(text)) return `The ${label} must be one line.`;
  return undefined;
}

export function validateLedgerForm(
  kind: "payment" | "adjustment",
  form: FormData,
  currency: string,
): { ok: true; entry: PaymentEntry | AdjustmentEntry } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const amountText = line(form, "amount");
  const negative = kind === "adjustment" && amountText.startsWith("-");
  const amount = parseAmount(negative ? amountText.slice(1) : amountText, currency);
  if (!amount.ok) errors.amount = amount.error;
  const date = line(form, "date");
  errors.date = checkDate(date);
  const method = line(form, "method");
  const reference = line(form, "reference");
  const note = line(form, "note");
  const partnerNote = line(form, "partnerNote");
  if (kind === "payment") {
    errors.method = checkText(method, "method", 60, true);
    errors.reference = checkText(reference, "reference", 120, false);
  } else {
    errors.note = checkText(note, "note", 300, true);
    errors.partnerNote = checkText(partnerNote, "note for the partner", 300, false);
  }
  const problems = Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as FieldErrors;
  if (Object.keys(problems).length > 0 || !amount.ok) return { ok: false, errors: problems };
  return kind === "payment"
    ? { ok: true, entry: { kind, amountMinor: amount.minor, date, method, reference } }
    : { ok: true, entry: { kind, amountMinor: negative ? -amount.minor : amount.minor, date, note, partnerNote } };
}
