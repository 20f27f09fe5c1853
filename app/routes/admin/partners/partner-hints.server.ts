import { formatMinor } from "~/server/ledger/index.server.ts";

/** What the partner form's "Fee per call" takes: the currency, and the default fee per call it falls back to. */
export function callFeeHint(defaultCallFeeMinor: number, currency: string): string {
  return `In ${currency}, charged for a billable call. Blank: the default fee per call (${formatMinor(defaultCallFeeMinor, currency)}).`;
}
