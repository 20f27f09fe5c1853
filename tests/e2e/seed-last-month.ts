import { randomUUID } from "node:crypto";
import { env } from "../../app/config/env.server.ts";
import { zonedInstant } from "../../app/lib/operator-time.ts";
import { saveOperator } from "../../app/server/console/index.server.ts";
import { openDatabase } from "../../app/server/db/index.server.ts";
import { duePeriod } from "../../app/server/ledger/index.server.ts";
import { ledgerEntries } from "../../app/server/ledger/schema.server.ts";
import { addPartner } from "../../app/server/partners/index.server.ts";

/**
 * Seeds the embedded database in PGLITE_DATA_DIR (which must be set, and not be open in a server) for the monthly
 * statement's browser test: an operator, owner@operator.example, and a partner, Lee Park, at $45.50 a referral,
 * with a month of entries in the month whose statement is due now (last month, in OPERATOR_TIME_ZONE): two
 * charges, the credit for returning the second lead, and a $20.00 payment. Closing balance: $25.50.
 * Prints the month as JSON: {"period":"2026-10"}.
 *
 * The ledger's own functions record an entry at the moment they run, and no entry can be changed after, so the
 * entries are inserted into the ledger's table with their times in that month, with the fields its charge,
 * approval and payment record.
 */

const OPERATOR = "owner@operator.example";
const FEE_MINOR = 4_550;
const SERVICE = "Drain Services";
const ZIP = "10002";

if (!process.env.PGLITE_DATA_DIR) throw new Error("Set PGLITE_DATA_DIR to the data folder to seed.");

const database = await openDatabase({ pgliteDataDir: env.PGLITE_DATA_DIR });
try {
  await saveOperator(database.db, OPERATOR, "correct horse battery staple");
  const partnerId = await addPartner(database.db, {
    name: "Lee Park",
    business: "Park Drains",
    phone: "555-010-4550",
    email: "lee@park-drains.example",
    services: [SERVICE],
    zipCodes: [ZIP],
    feeMinor: FEE_MINOR,
    serviceFees: {},
  });

  const { period } = duePeriod(new Date(), env.OPERATOR_TIME_ZONE);
  const day = (dayOfMonth: number) => `${period}-${String(dayOfMonth).padStart(2, "0")}`;
  const at = (dayOfMonth: number) => zonedInstant(day(dayOfMonth), 10, env.OPERATOR_TIME_ZONE);
  const returnedReferral = randomUUID();
  await database.db.insert(ledgerEntries).values([
    {
      partnerId,
      kind: "charge",
      amountMinor: FEE_MINOR,
      referralId: randomUUID(),
      service: SERVICE,
      zip: ZIP,
      occurredOn: day(3),
      recordedAt: at(3),
    },
    {
      partnerId,
      kind: "charge",
      amountMinor: FEE_MINOR,
      referralId: returnedReferral,
      service: SERVICE,
      zip: ZIP,
      occurredOn: day(10),
      recordedAt: at(10),
    },
    {
      partnerId,
      kind: "credit",
      amountMinor: -FEE_MINOR,
      referralId: returnedReferral,
      service: SERVICE,
      zip: ZIP,
      occurredOn: day(17),
      recordedBy: OPERATOR,
      note: "Lead returned",
      recordedAt: at(17),
    },
    {
      partnerId,
      kind: "payment",
      amountMinor: -2_000,
      occurredOn: day(24),
      method: "Check",
      reference: "1001",
      recordedBy: OPERATOR,
      recordedAt: at(24),
    },
    {
      partnerId,
      kind: "adjustment",
      amountMinor: -500,
      occurredOn: day(26),
      note: "Waived: complained about the office",
      partnerNote: "Goodwill",
      recordedBy: OPERATOR,
      recordedAt: at(26),
    },
  ]);
  process.stdout.write(`${JSON.stringify({ period })}\n`);
} finally {
  await database.close();
}
