/** Amounts of money as the console takes and shows them: whole cents of CONVERSION_CURRENCY. */

/** The largest amount accepted anywhere (a job value, a month's spend): 10 million. */
const AMOUNT_MAX_CENTS = 1_000_000_000;
/** The longest amount text accepted ("10,000,000.00" and some spaces). */
export const AMOUNT_MAX_LENGTH = 20;

const AMOUNT = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?$/;

/**
 * "1250", "1,250.5" or "1250.50" as cents; null for anything else (a sign, a currency symbol, a third decimal,
 * more than AMOUNT_MAX_CENTS).
 */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed.length > AMOUNT_MAX_LENGTH || !AMOUNT.test(trimmed)) return null;
  const [whole = "0", fraction = ""] = trimmed.replace(/,/g, "").split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return cents <= AMOUNT_MAX_CENTS ? cents : null;
}

/** Cents as a plain decimal, "1250.00": what the ad platforms' files and the form fields hold. */
export function centsToDecimal(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** One formatter per currency: making one costs far more than using it, and a console page shows hundreds of amounts. */
const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Cents for reading, "$1,250.00" (or "€…" and so on for the currency). */
export function formatMoney(cents: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    moneyFormats.set(currency, format);
  }
  return format.format(cents / 100);
}
