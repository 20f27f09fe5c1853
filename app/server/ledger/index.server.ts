/** Money: partners' fees, the append-only ledger of what each owes, returns of leads, and payments. */
export {
  acceptedReferralsSince,
  BALANCE_LIMIT_MINOR,
  chargeAcceptedCte,
  chargePassesLimitSql,
  chargeCallCte,
  type AcceptedReferral,
  chargeOf,
  balances,
  defaultFee,
  leadEntries,
  partnerLedger,
  recordAdjustment,
  recordPayment,
  samePaymentOn,
  revenueBySource,
  setDefaultFee,
} from "./entries.server.ts";
export { formatMinor, minorToDecimal, parseAmount } from "./money.server.ts";
export { validateLedgerForm } from "./ledger-form.server.ts";
export {
  approveReturn,
  denyReturn,
  disputeOfCall,
  leadReturnsOf,
  listReturns,
  openReturn,
  openReturnCount,
  requestCallDispute,
  requestReturn,
  returnOf,
  validateReturn,
  type ReturnOutcome,
} from "./returns.server.ts";
export {
  duePeriod,
  lastMonthPeriod,
  unissuedCount,
  type StatementPeriod,
  findStatement,
  issueStatement,
  listStatements,
  paymentInstructions,
  previewStatement,
  setPaymentInstructions,
  statementRows,
  statementView,
} from "./statements.server.ts";
export { ledgerEntriesPage, statementsPage } from "./read-api-pages.server.ts";
export { lastMonth, ledgerCsv, parseLedgerRange } from "./ledger-csv.server.ts";
