/** US ZIP codes as the console takes them: five digits; a list separated by spaces or commas. */

const ZIP = /^\d{5}$/;

/** The most ZIP codes one partner may serve. */
export const MAX_PARTNER_ZIPS = 500;

export function isZip(value: string): boolean {
  return ZIP.test(value);
}

/** The codes in a list, each once, in the order given; or the first entry that is not a 5-digit code. */
export function parseZipList(text: string): { zips: string[] } | { invalid: string } {
  const entries = text.split(/[\s,]+/).filter(Boolean);
  const invalid = entries.find((entry) => !isZip(entry));
  if (invalid !== undefined) return { invalid: invalid.slice(0, 20) };
  return { zips: [...new Set(entries)] };
}
