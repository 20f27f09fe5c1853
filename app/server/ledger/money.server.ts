/**
 * Amounts in the ledger: integers in the minor units of CONVERSION_CURRENCY (cents of USD, yen of JPY), typed by
 * the operator as a plain decimal with no more decimals than the currency has.
 */

/** The largest amount one entry may hold: a million in the currency's major units. */
const MAX_MAJOR = 1_000_000;
const AMOUNT = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

/** How many decimals the currency has (2 for USD, 0 for JPY, 3 for KWD). */
function currencyDigits(currency: string): number {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

export type ParsedAmount = { ok: true; minor: number } | { ok: false; error: string };

/** "125", "1,250.50": a positive amount within bounds, in minor units; a clear error for anything else. */
export function parseAmount(text: string, currency: string): ParsedAmount {
  const digits = currencyDigits(currency);
  const trimmed = text.trim();
  const match = trimmed.length <= 20 ? AMOUNT.exec(trimmed) : null;
  if (!match) return { ok: false, error: "Enter an amount, like 125 or 125.50, with no sign or currency symbol." };
  const fraction = match[1] ?? "";
  if (fraction.length > digits) {
    return { ok: false, error: `${currency} amounts have ${digits === 0 ? "no" : `at most ${digits}`} decimals.` };
  }
  const [whole = "0"] = trimmed.replace(/,/g, "").split(".");
  const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  if (minor <= 0) return { ok: false, error: "Enter an amount above zero." };
  if (minor > MAX_MAJOR * 10 ** digits)
    return { ok: false, error: `Enter at most ${MAX_MAJOR.toLocaleString("en-US")}.` };
  return { ok: true, minor };
}

/** Minor units for reading: "$1,250.00", "¥1,250". */
export function formatMinor(minor: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(minor / 10 ** currencyDigits(currency));
}

/** Minor units as a plain decimal for a form field or a CSV: "1250.00". */
export function minorToDecimal(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}
