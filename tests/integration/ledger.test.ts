import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "~/server/db/index.server.ts";
import { contactRequests, privacyRequests } from "../../app/server/leads/schema.server.ts";
import { ledgerEntries, leadReturns, partnerStatements } from "../../app/server/ledger/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { referrals as referralRows } from "../../app/server/partners/schema.server.ts";
import { referralToken } from "../../app/server/partners/referral-token.server.ts";
import { addPartner, type Referrals } from "~/server/partners/index.server.ts";
import { purgeExpiredLeads } from "~/server/leads/index.server.ts";
import { campaignReport } from "~/server/conversions/index.server.ts";
import {
  approveReturn,
  balances,
  listReturns,
  partnerLedger,
  recordAdjustment,
  recordPayment,
  revenueBySource,
  setDefaultFee,
  ledgerCsv,
  parseLedgerRange,
  setPaymentInstructions,
  statementRows,
} from "~/server/ledger/index.server.ts";
import { createWebhookConsole } from "~/server/webhooks/index.server.ts";
import { webhookDeliveries } from "../../app/server/webhooks/schema.server.ts";
import { startPostgres, testEnv, type TestPostgres } from "../../tooling/local-services.ts";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { saveOperator } from "../../app/server/console/operators.server.ts";
import { TEST_TOKEN_KEY, testReferrals } from "../../tooling/test-referrals.ts";

/**
 * The money side of referrals, on both databases: a partner is charged once when it accepts, returns credit once,
 * payments and adjustments are entries too, the balance is the sum of them all, and nothing is ever changed.
 */

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

const drivers = [
  { name: "PGlite", open: () => openDatabase({ pgliteDataDir: "memory://" }) },
  {
    name: "PostgreSQL",
    open: async () => openDatabase({ databaseUrl: await postgres.createDatabase(), pgliteDataDir: "" }),
  },
];

/** Every statement's number, in order: 1, 2, 3… when none was skipped. */
async function statementNumbers(database: OpenDatabase): Promise<number[]> {
  const rows = await database.db.select({ number: partnerStatements.number }).from(partnerStatements);
  return rows.map((row) => row.number).sort((a, b) => a - b);
}

/** The referrals service of one instance of the site, over its own connection to the database. */
const referralsOn = (database: OpenDatabase) =>
  testReferrals(database, { pageLimit: { perWindow: 10_000, windowSeconds: 600 } });

describe("statements issued by several instances on one PostgreSQL at once", () => {
  test("one set of statements, one email each, numbered one after another without gaps", async () => {
    const url = await postgres.createDatabase();
    const instances = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: url, pgliteDataDir: "" })));
    try {
      const [first] = instances;
      const now = new Date();
      // The 2nd of last month, noon in New York: last month whatever today is.
      const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 2, 17));
      const partnerIds = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          addPartner(first!.db, {
            name: `Partner ${index}`,
            business: `Business ${index}`,
            phone: "555-010-0000",
            email: `partner${index}@example.com`,
            services: ["Drain Services"],
            zipCodes: ["10001"],
            feeMinor: null,
            serviceFees: {},
          }),
        ),
      );
      await first!.db.insert(ledgerEntries).values(
        partnerIds.map((partnerId) => ({
          partnerId,
          kind: "adjustment" as const,
          amountMinor: 700,
          note: "Opening",
          recordedAt: lastMonth,
        })),
      );
      // Each instance issues last month's statements at the same moment, twice over.
      const runs = await Promise.all(
        instances.flatMap((instance) => {
          const referrals = referralsOn(instance);
          return [referrals.issueLastMonthNow(now), referrals.issueLastMonthNow(now)];
        }),
      );
      expect(runs.reduce((sum, issued) => sum + issued, 0)).toBe(partnerIds.length);
      const issued = await first!.db.select().from(partnerStatements);
      expect(issued.map((statement) => statement.partnerId).sort()).toEqual([...partnerIds].sort());
      expect(await statementNumbers(first!)).toEqual(partnerIds.map((_, index) => index + 1));
      const emails = await first!.db.select().from(emailOutbox).where(eq(emailOutbox.purpose, "partner_statement"));
      expect(emails).toHaveLength(partnerIds.length);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });
});

for (const driver of drivers) {
  describe(`the ledger on ${driver.name}`, () => {
    let database: OpenDatabase;
    let referrals: Referrals;
    beforeAll(async () => {
      database = await driver.open();
      referrals = referralsOn(database);
    });
    afterAll(() => database?.close());

    async function storeLead(receivedAt = new Date(), attribution: { utmSource?: string; utmCampaign?: string } = {}) {
      const id = randomUUID();
      await database.db.insert(contactRequests).values({
        id,
        receivedAt,
        ...attribution,
        firstName: "Dana",
        lastName: "Whitfield",
        email: `dana.${id}@example.com`,
        phone: "(555) 014-2288",
        service: "Drain Services",
        message: "Slow drain",
        zip: "10001",
        consentText: "By submitting…",
        channel: "form",
      });
      return id;
    }

    const partner = (name: string, feeMinor: number | null, serviceFees: Record<string, number> = {}) =>
      addPartner(database.db, {
        name,
        business: `${name} Plumbing`,
        phone: "555-010-0000",
        email: `${name.toLowerCase().replace(/\W/g, "")}.${randomUUID()}@example.com`,
        services: ["Drain Services"],
        zipCodes: ["10001"],
        feeMinor,
        serviceFees,
      });

    /** Offers the lead to the partners and returns each one's link token, in the order given. */
    async function offer(leadId: string, partnerIds: string[]) {
      const outcome = await referrals.offer({
        leadId,
        partnerIds,
        operatorEmail: "op@plumbline.example",
        optOutConfirmed: false,
      });
      expect(outcome.kind).toBe("sent");
      const offered = await database.db.select().from(referralRows).where(eq(referralRows.contactRequestId, leadId));
      return partnerIds.map((partnerId) =>
        referralToken(TEST_TOKEN_KEY, offered.find((row) => row.partnerId === partnerId)!.id),
      );
    }

    const sumOf = async (partnerId: string) => {
      const entries = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.partnerId, partnerId));
      return entries.reduce((sum, entry) => sum + entry.amountMinor, 0);
    };

    test("accepting charges the partner's own fee once; the balance is the sum of every entry after any sequence", async () => {
      const ana = await partner("Ana Ruiz", 4_500);
      const [token] = await offer(await storeLead(), [ana]);
      expect((await referrals.answer(token!, "198.51.100.1", "accepted")).kind).toBe("accepted");
      // The same link answered again charges nothing more.
      expect((await referrals.answer(token!, "198.51.100.1", "accepted")).kind).toBe("accepted");
      await recordPayment(database.db, {
        partnerId: ana,
        amountMinor: 2_000,
        date: "2026-11-20",
        method: "Check",
        reference: "1042",
        by: "op@plumbline.example",
      });
      await recordAdjustment(database.db, {
        partnerId: ana,
        amountMinor: -500,
        date: "2026-11-21",
        note: "Goodwill",
        by: "op@plumbline.example",
      });
      const ledger = await partnerLedger(database.db, ana);
      expect(ledger.entries.map((entry) => [entry.kind, entry.amountMinor])).toEqual([
        ["charge", 4_500],
        ["payment", -2_000],
        ["adjustment", -500],
      ]);
      expect(ledger.balanceMinor).toBe(2_000);
      expect(ledger.balanceMinor).toBe(await sumOf(ana));
      expect(ledger.entries[0]).toMatchObject({ service: "Drain Services", zip: "10001" });
      expect(ledger.entries[0]!.occurredOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    });

    test("a partner's fee for the job's service is charged in place of its fee per referral", async () => {
      const jo = await partner("Jo Banks", 4_000, { "Drain Services": 9_000 });
      const drains = await storeLead();
      await database.db
        .update(contactRequests)
        .set({ service: " drain SERVICES " })
        .where(eq(contactRequests.id, drains));
      const heater = await storeLead();
      await database.db
        .update(contactRequests)
        .set({ service: "Water Heater Services" })
        .where(eq(contactRequests.id, heater));
      for (const leadId of [drains, heater]) {
        const [token] = await offer(leadId, [jo]);
        expect((await referrals.answer(token!, "198.51.100.9", "accepted")).kind).toBe("accepted");
      }
      expect((await partnerLedger(database.db, jo)).entries.map((entry) => entry.amountMinor)).toEqual([9_000, 4_000]);
    });

    test("a partner without a fee of its own is charged the default; at a fee of zero, nothing", async () => {
      const ben = await partner("Ben Okafor", null);
      const [first] = await offer(await storeLead(), [ben]);
      await referrals.answer(first!, "198.51.100.2", "accepted");
      expect((await partnerLedger(database.db, ben)).entries).toEqual([]);
      await setDefaultFee(database.db, 3_000);
      const [second] = await offer(await storeLead(), [ben]);
      await referrals.answer(second!, "198.51.100.2", "accepted");
      expect((await partnerLedger(database.db, ben)).balanceMinor).toBe(3_000);
      await setDefaultFee(database.db, 0);
    });

    test("two partners accepting one job at the same moment: one gets it, and one charge is made", async () => {
      const [cy, di] = [await partner("Cy Lee", 5_000), await partner("Di Park", 5_000)];
      const leadId = await storeLead();
      const tokens = await offer(leadId, [cy, di]);
      const answers = await Promise.all(tokens.map((token) => referrals.answer(token, "198.51.100.3", "accepted")));
      expect(answers.map((answer) => answer.kind).sort()).toEqual(["accepted", "taken"]);
      const charges = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, "charge"));
      expect(charges.filter((charge) => charge.partnerId === cy || charge.partnerId === di)).toHaveLength(1);
    });

    test("a do-not-sell request filed after acceptance: the accepted partner's link shows the job without contact details, and why", async () => {
      const leadId = await storeLead();
      const [token] = await offer(leadId, [await partner("Ana Ruiz", 5_000)]);
      const accepted = await referrals.answer(token!, "198.51.100.1", "accepted");
      expect(accepted).toMatchObject({ kind: "accepted", contactWithdrawn: false });
      expect(JSON.stringify(accepted)).toContain("014-2288");

      await database.db.insert(privacyRequests).values({
        id: randomUUID(),
        dueAt: new Date(Date.now() + 30 * 86_400_000),
        name: "Dana Whitfield",
        email: `DANA.${leadId}@example.com`,
        channel: "form",
      });
      const after = await referrals.page(token!, "198.51.100.1");
      expect(after).toMatchObject({ kind: "accepted", contact: [], contactWithdrawn: true });
      expect(JSON.stringify(after)).not.toMatch(/Whitfield|dana\.|014-2288/);
      // The job itself is still there, with the return the partner may still send.
      expect(JSON.stringify(after)).toContain("Slow drain");
      expect(after).toMatchObject({ leadReturn: { state: "offered" } });
    });

    test("a return credits the charge once, however often it is approved; a second return is refused", async () => {
      const eve = await partner("Eve Stone", 6_000);
      const [token] = await offer(await storeLead(), [eve]);
      await referrals.answer(token!, "198.51.100.4", "accepted");
      const form = new FormData();
      form.set("reason", "Wrong number");
      const returned = await referrals.returnLead(token!, "198.51.100.4", form);
      expect(returned).toMatchObject({ kind: "accepted", leadReturn: { state: "sent", reason: "Wrong number" } });
      expect(await referrals.returnLead(token!, "198.51.100.4", form)).toMatchObject({
        leadReturn: { state: "sent" },
      });
      expect(await database.db.$count(leadReturns, eq(leadReturns.partnerId, eve))).toBe(1);

      const { open } = await listReturns(database.db);
      const waiting = open.find((row) => row.partnerId === eve)!;
      expect(waiting).toMatchObject({ reason: "Wrong number", chargeMinor: 6_000 });
      const approvals = await Promise.all(
        [1, 2, 3].map(() => approveReturn(database.run, waiting.id, "op@plumbline.example", "2026-11-25")),
      );
      expect(approvals.filter(Boolean)).toHaveLength(1);
      const ledger = await partnerLedger(database.db, eve);
      expect(ledger.entries.map((entry) => [entry.kind, entry.amountMinor])).toEqual([
        ["charge", 6_000],
        ["credit", -6_000],
      ]);
      expect(ledger.balanceMinor).toBe(0);
      expect(await referrals.page(token!, "198.51.100.4")).toMatchObject({ leadReturn: { state: "approved" } });
    });

    test("the offer says the fee; approving or denying a return emails the partner the amount credited or kept", async () => {
      const [kay, lou] = await Promise.all([partner("Kay Moss", 5_500), partner("Lou Park", 5_500)]);
      const decided: Record<string, string> = {};
      for (const [partnerId, decision] of [
        [kay, "approved"],
        [lou, "denied"],
      ] as const) {
        const [token] = await offer(await storeLead(), [partnerId]);
        const [offerEmail] = await database.db
          .select({ text: emailOutbox.textBody })
          .from(emailOutbox)
          .where(sql`${emailOutbox.purpose} = 'referral_offer' AND ${emailOutbox.textBody} LIKE ${`%${token}%`}`);
        expect(offerEmail!.text).toContain("Fee if you accept: $55.00.");
        expect(await referrals.answer(token!, "198.51.100.5", "accepted")).toMatchObject({ charged: "$55.00" });
        const form = new FormData();
        form.set("reason", "Wrong number");
        await referrals.returnLead(token!, "198.51.100.5", form);
        const waiting = (await listReturns(database.db)).open.find((row) => row.partnerId === partnerId)!;
        const input = { returnId: waiting.id, by: "op@plumbline.example" };
        expect(
          await referrals.decideReturn(
            decision === "approved" ? { ...input, decision } : { ...input, decision, reason: "It rang." },
          ),
        ).toBe(true);
        const [email] = await database.db
          .select({ text: emailOutbox.textBody })
          .from(emailOutbox)
          .where(
            sql`${emailOutbox.purpose} = ${`lead_return_${decision}`} AND ${emailOutbox.toAddress} LIKE ${`${decision === "approved" ? "kaymoss" : "loupark"}%`}`,
          );
        decided[decision] = email!.text;
      }
      expect(decided.approved).toContain("was approved: $55.00 is credited to your balance");
      expect(decided.denied).toContain("was not approved: the $55.00 charge stands.");
      expect(decided.denied).toContain("Reason: It rang.");
    });

    test("a return needs a listed reason (and words for Other), and is refused after the window", async () => {
      const fay = await partner("Fay Gold", 2_500);
      const [token] = await offer(await storeLead(), [fay]);
      await referrals.answer(token!, "198.51.100.5", "accepted");
      const other = new FormData();
      other.set("reason", "Other");
      expect(await referrals.returnLead(token!, "198.51.100.5", other)).toMatchObject({
        leadReturn: { state: "offered", error: "Say why you are returning the lead." },
      });
      const madeUp = new FormData();
      madeUp.set("reason", "Too far");
      expect(await referrals.returnLead(token!, "198.51.100.5", madeUp)).toMatchObject({
        leadReturn: { state: "offered", error: "Choose a reason from the list." },
      });
      await database.db.execute(
        sql`UPDATE referrals SET answered_at = now() - interval '8 days' WHERE partner_id = ${fay}::uuid`,
      );
      const late = new FormData();
      late.set("reason", "Wrong number");
      expect((await referrals.returnLead(token!, "198.51.100.5", late)).kind).toBe("used");
      expect(await database.db.$count(leadReturns, eq(leadReturns.partnerId, fay))).toBe(0);
    });

    test("the retention purge deletes the lead and its referral, and leaves its ledger entries without contact details", async () => {
      const gus = await partner("Gus Hall", 7_000);
      const leadId = await storeLead(new Date(Date.now() - 400 * 86_400_000));
      const [token] = await offer(leadId, [gus]);
      await referrals.answer(token!, "198.51.100.6", "accepted");
      // A lead is kept while an email of it is unsent: these were sent.
      await database.db.update(emailOutbox).set({ sentAt: new Date() });
      await purgeExpiredLeads(database.db, { outboxDir: "" });
      expect(await database.db.$count(contactRequests, eq(contactRequests.id, leadId))).toBe(0);
      const ledger = await partnerLedger(database.db, gus);
      expect(ledger.entries).toHaveLength(1);
      expect(ledger.entries[0]).toMatchObject({
        kind: "charge",
        amountMinor: 7_000,
        service: "Drain Services",
        zip: "10001",
      });
      expect(JSON.stringify(ledger.entries)).not.toMatch(/Whitfield|dana\.|014-2288/);
    });

    test("every entry, charge, credit, payment or adjustment, is queued as a ledger.entry.created webhook with it", async () => {
      const webhooks = createWebhookConsole({
        db: database.db,
        rule: { allowPrivate: true },
        onQueued: () => undefined,
      });
      const form = new FormData();
      form.set("url", "https://crm.example/hooks");
      form.append("events", "ledger.entry.created");
      const endpoint = await webhooks.add(form);
      if (endpoint.kind !== "added") throw new Error("the endpoint was refused");
      const ida = await partner("Ida Grant", 4_000);
      const [token] = await offer(await storeLead(), [ida]);
      await referrals.answer(token!, "198.51.100.8", "accepted");
      const reason = new FormData();
      reason.set("reason", "Wrong number");
      await referrals.returnLead(token!, "198.51.100.8", reason);
      const waiting = (await listReturns(database.db)).open.find((row) => row.partnerId === ida)!;
      await approveReturn(database.run, waiting.id, "op@plumbline.example", "2026-11-25");
      const by = "op@plumbline.example";
      await recordPayment(database.db, {
        partnerId: ida,
        amountMinor: 1_000,
        date: "2026-11-25",
        method: "Check",
        reference: "7",
        by,
      });
      await recordAdjustment(database.db, {
        partnerId: ida,
        amountMinor: 250,
        date: "2026-11-25",
        note: "Late fee",
        by,
      });

      const queued = await database.db
        .select({ payload: webhookDeliveries.payload })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.purpose, "ledger.entry.created"));
      const entries = queued
        .map(({ payload }) => payload as { type: string; data: Record<string, unknown> })
        .filter((payload) => payload.data.partner_id === ida);
      expect(entries.map((entry) => entry.type)).toEqual(Array(4).fill("ledger.entry.created"));
      const ledger = await partnerLedger(database.db, ida);
      expect(entries.map((entry) => entry.data).sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual(
        ledger.entries
          .map((entry) => ({
            id: entry.id,
            partner_id: ida,
            kind: entry.kind,
            amount_minor: entry.amountMinor,
            referral_id: entry.referralId,
            call_id: null,
            lead_id: entry.kind === "charge" || entry.kind === "credit" ? expect.any(String) : null,
            occurred_on: entry.occurredOn,
            recorded_by: entry.recordedBy,
            note: entry.note,
            recorded_at: entry.recordedAt.toISOString(),
          }))
          .sort((a, b) => a.id.localeCompare(b.id)),
      );
      await webhooks.remove(endpoint.id);
    });

    test("no entry is ever changed or deleted, whoever asks the database", async () => {
      const hal = await partner("Hal Moss", 1_000);
      await recordPayment(database.db, {
        partnerId: hal,
        amountMinor: 1_000,
        date: "2026-11-25",
        method: "Cash",
        reference: "",
        by: "op@plumbline.example",
      });
      await expect(
        database.db.update(ledgerEntries).set({ amountMinor: -1 }).where(eq(ledgerEntries.partnerId, hal)),
      ).rejects.toThrow();
      await expect(database.db.delete(ledgerEntries).where(eq(ledgerEntries.partnerId, hal))).rejects.toThrow();
      expect((await partnerLedger(database.db, hal)).balanceMinor).toBe(-1_000);
    });

    test("revenue per campaign is its leads' charges less credits, and profit is revenue less spend", async () => {
      const ivy = await partner("Ivy Cole", 4_000);
      const campaign = `drains-${randomUUID().slice(0, 8)}`;
      const tokens: string[] = [];
      for (let lead = 0; lead < 2; lead += 1) {
        const leadId = await storeLead(new Date(), { utmSource: "google", utmCampaign: campaign });
        const [token] = await offer(leadId, [ivy]);
        tokens.push(token!);
        await referrals.answer(token!, "198.51.100.7", "accepted");
      }
      const form = new FormData();
      form.set("reason", "Not a plumbing job");
      await referrals.returnLead(tokens[1]!, "198.51.100.7", form);
      const { open } = await listReturns(database.db);
      await approveReturn(database.run, open.find((row) => row.partnerId === ivy)!.id, "op@x.example", "2026-11-25");
      const today = new Date().toISOString().slice(0, 10);
      const rows = await campaignReport(database.db, { from: today, to: today }, "UTC", undefined, Promise.resolve([]));
      expect(rows.find((row) => row.campaign === campaign)).toMatchObject({
        source: "google",
        revenueCents: 4_000,
        profitCents: 4_000,
        costCents: null,
      });
    });

    test("a $30M balance is listed and its statement issued; entries taking a balance past the limit are refused", async () => {
      const big = await partner("Max Volume", 5_000);
      // Recorded before the limit: thirty charges of $1M, past what an integer sum holds.
      const now = new Date();
      const lastMonth = new Date(now.getTime() - 40 * 86_400_000);
      await database.db.insert(ledgerEntries).values(
        Array.from({ length: 30 }, () => ({
          partnerId: big,
          kind: "charge" as const,
          amountMinor: 100_000_000,
          source: "google",
          campaign: "big-jobs",
          recordedAt: lastMonth,
        })),
      );
      await database.db.insert(ledgerEntries).values({ partnerId: big, kind: "payment", amountMinor: -100 });
      expect((await balances(database.db)).get(big)).toBe(3_000_000_000 - 100);
      expect((await partnerLedger(database.db, big)).balanceMinor).toBe(3_000_000_000 - 100);
      const revenue = await revenueBySource(database.db, new Date(lastMonth.getTime() - 1_000), now);
      expect(revenue.find((row) => row.campaign === "big-jobs")?.revenueMinor).toBe(3_000_000_000);
      const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 15));
      await referrals.issueMonthlyStatements(nextMonth);
      const [statement] = await database.db
        .select()
        .from(partnerStatements)
        .where(eq(partnerStatements.partnerId, big));
      expect(statement).toMatchObject({ openingMinor: 3_000_000_000, closingMinor: 3_000_000_000 - 100 });
      expect(statement!.csv).toContain(",Amount due,,29999999.00");

      const payment = (partnerId: string, amountMinor: number) =>
        recordPayment(database.db, {
          partnerId,
          amountMinor,
          date: "2026-11-25",
          method: "Wire",
          reference: "",
          by: "op",
        });
      const adjustment = (partnerId: string, amountMinor: number) =>
        recordAdjustment(database.db, { partnerId, amountMinor, note: "Correction", date: "2026-11-25", by: "op" });
      // Past the limit, a payment brings the balance back toward it; nothing may take it further past.
      expect(await payment(big, 100)).toBe("recorded");
      expect(await adjustment(big, 100)).toBe("over-limit");
      expect(await sumOf(big)).toBe(3_000_000_000 - 200);

      // Within the limit ($10M either way), entries are recorded up to it and refused past it.
      const small = await partner("Sam Small", 5_000);
      for (let entry = 0; entry < 10; entry++) expect(await adjustment(small, 100_000_000)).toBe("recorded");
      expect(await adjustment(small, 1)).toBe("over-limit");
      expect(await payment(small, 1_000_000_000)).toBe("recorded");
      expect(await payment(small, 1_000_000_000)).toBe("recorded");
      expect(await payment(small, 1)).toBe("over-limit");
      expect(await sumOf(small)).toBe(-1_000_000_000);
      // A refused entry is not recorded.
      expect(await database.db.$count(ledgerEntries, eq(ledgerEntries.partnerId, small))).toBe(12);
    });

    test("accepting a job whose charge would take the balance past the limit is refused, until the partner pays", async () => {
      const near = await partner("Nia Near", 5_000);
      await database.db.insert(ledgerEntries).values(
        Array.from({ length: 10 }, () => ({
          partnerId: near,
          kind: "adjustment" as const,
          amountMinor: 99_999_800,
          note: "Carried over",
        })),
      );
      const leadId = await storeLead();
      const [token] = await offer(leadId, [near]);
      expect(await referrals.answer(token!, "198.51.100.9", "accepted")).toEqual({ kind: "over-limit" });
      expect(await sumOf(near)).toBe(999_998_000);
      const [unanswered] = await database.db
        .select()
        .from(referralRows)
        .where(eq(referralRows.contactRequestId, leadId));
      expect(unanswered!.answer).toBeNull();

      expect(
        await recordPayment(database.db, {
          partnerId: near,
          amountMinor: 10_000,
          date: "2026-11-25",
          method: "Check",
          reference: "",
          by: "op",
        }),
      ).toBe("recorded");
      expect(await referrals.answer(token!, "198.51.100.9", "accepted")).toMatchObject({ kind: "accepted" });
      expect(await sumOf(near)).toBe(999_998_000 - 10_000 + 5_000);
    });

    test("a monthly statement reconciles, is issued once however many instances try, and never changes after", async () => {
      const jo = await partner("Jo Reyes", 5_000);
      // Last month before this one: the statement's opening balance.
      const now = new Date();
      await database.db.insert(ledgerEntries).values({
        partnerId: jo,
        kind: "adjustment",
        amountMinor: 1_000,
        note: "Carried over",
        recordedAt: new Date(now.getTime() - 40 * 86_400_000),
      });
      const [token] = await offer(await storeLead(), [jo]);
      await referrals.answer(token!, "198.51.100.8", "accepted");
      await recordPayment(database.db, {
        partnerId: jo,
        amountMinor: 2_000,
        date: "2026-11-25",
        method: "Check",
        reference: "77",
        by: "op@plumbline.example",
      });
      // An adjustment's internal note stays in the console: its statement prints only the note for the partner.
      await recordAdjustment(database.db, {
        partnerId: jo,
        amountMinor: -500,
        note: "Waived: complained about the office",
        partnerNote: "Goodwill",
        date: "2026-11-26",
        by: "op@plumbline.example",
      });
      // How to pay, from the Partners page: printed in the statement's email and on its page.
      expect(await setPaymentInstructions(database.db, "x".repeat(1_001))).toMatchObject({ ok: false });
      expect(
        await setPaymentInstructions(
          database.db,
          "  Bank transfer: Plumbline LLC, account 1234 \r\n\r\nCheck to PO Box 9  ",
        ),
      ).toEqual({ ok: true, text: "Bank transfer: Plumbline LLC, account 1234\n\nCheck to PO Box 9" });
      // The 1st of next month, 09:00 in the operator's zone: this month's statements are due.
      const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 15));
      await Promise.all([1, 2, 3].map(() => referrals.issueMonthlyStatements(nextMonth)));
      const issued = await database.db.select().from(partnerStatements).where(eq(partnerStatements.partnerId, jo));
      expect(issued).toHaveLength(1);
      const statement = issued[0]!;
      expect(statement).toMatchObject({ openingMinor: 1_000, closingMinor: 3_500 });
      expect(statement.csv).toContain(",Adjustment,Goodwill,-5.00\r\n");
      expect(statement.csv).not.toContain("complained");
      const amounts = statementRows(statement.csv)
        .filter((row) => ["Charge", "Payment", "Credit", "Adjustment"].includes(row[1] ?? ""))
        .map((row) => Math.round(Number(row[3]) * 100));
      expect(amounts).toEqual([5_000, -2_000, -500]);
      expect(statement.openingMinor + amounts.reduce((sum, amount) => sum + amount, 0)).toBe(statement.closingMinor);
      expect(statement.csv).toContain(`Statement,${statement.number}`);
      expect(statement.csv).toContain(",Amount due,,35.00");
      // A payment is a negative amount, written as a number a spreadsheet sums (not as text).
      expect(statement.csv).toMatch(/,-20\.00\r\n/);

      // A late entry for the month changes nothing already issued.
      await recordAdjustment(database.db, {
        partnerId: jo,
        amountMinor: 100,
        note: "Late",
        date: "2026-11-25",
        by: "op@plumbline.example",
      });
      const numberedBefore = await statementNumbers(database);
      await referrals.issueMonthlyStatements(nextMonth);
      const [again] = await database.db.select().from(partnerStatements).where(eq(partnerStatements.partnerId, jo));
      expect(again!.csv).toBe(statement.csv);
      // The check every 15 minutes takes no number for a statement already issued: numbers follow without gaps.
      await referrals.issueMonthlyStatements(nextMonth);
      expect(await statementNumbers(database)).toEqual(numberedBefore);
      expect(numberedBefore).toEqual(numberedBefore.map((_, index) => index + 1));

      // The partner's email links to the printable page, which shows the same rows.
      const [email] = await database.db
        .select()
        .from(emailOutbox)
        .where(
          sql`${emailOutbox.purpose} = 'partner_statement' AND ${emailOutbox.textBody} LIKE ${`%statement ${statement.number} %`}`,
        );
      expect(email!.textBody).toContain("How to pay:\nBank transfer: Plumbline LLC, account 1234\nCheck to PO Box 9\n");
      const link = /\/statements\/(\S+)/.exec(email!.textBody)![1]!;
      // It shows the frozen rows with the issue and due dates after the period, and amounts with their sign.
      const page = await referrals.statementPage(link);
      // The email says when it was issued and when it is due, as its page does.
      const dated = Object.fromEntries(page!.summary);
      expect(dated["Due"]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
      expect(email!.textBody).toContain(`\n\nIssued: ${dated["Issued"]}\nDue: ${dated["Due"]}\n\n`);
      expect(email!.htmlBody).toContain(`<p>Issued: ${dated["Issued"]}<br>Due: ${dated["Due"]}</p>`);
      expect(page).toMatchObject({
        number: statement.number,
        headings: ["Date", "Entry", "Details", "Amount"],
        paymentInstructions: "Bank transfer: Plumbline LLC, account 1234\n\nCheck to PO Box 9",
      });
      expect(page!.summary.map(([label]) => label)).toEqual([
        "Statement",
        "Partner",
        "Period",
        "Issued",
        "Due",
        "Currency",
      ]);
      expect(page!.entries.map((row) => row.at(-1))).toEqual([
        "$10.00",
        "$50.00",
        "-$20.00",
        "-$5.00",
        "$35.00",
        "$35.00",
      ]);
      // Both dates come from when it was issued (08:00 on the 1st in New York here): STATEMENT_DUE_DAYS later.
      await database.db
        .update(partnerStatements)
        .set({ issuedAt: new Date("2026-12-01T13:00:00Z") })
        .where(eq(partnerStatements.id, statement.id));
      expect((await referrals.statementPage(link))!.summary.slice(3, 5)).toEqual([
        ["Issued", "Dec 1, 2026"],
        ["Due", "Dec 16, 2026"],
      ]);
      // "Preview statement": this month so far as it would be issued now, stored nowhere and numbered by nothing.
      const preview = await referrals.statementPreview({ id: jo, name: "Jo Reyes", business: "Jo Reyes Co" });
      expect(preview.summary.map(([label]) => label)).toEqual([
        "Statement",
        "Partner",
        "Period",
        "Issued",
        "Due",
        "Currency",
      ]);
      expect(preview.entries.map((row) => [row[1], row[2], row[3]])).toEqual([
        ["Opening balance", "", "$10.00"],
        ["Charge", expect.any(String), "$50.00"],
        ["Payment", "Check · 77", "-$20.00"],
        ["Adjustment", "Goodwill", "-$5.00"],
        ["Adjustment", "", "$1.00"],
        ["Closing balance", "", "$36.00"],
        ["Amount due", "", "$36.00"],
      ]);
      expect(JSON.stringify(preview)).not.toContain("complained");
      expect(preview.paymentInstructions).toBe("Bank transfer: Plumbline LLC, account 1234\n\nCheck to PO Box 9");
      expect(await statementNumbers(database)).toEqual(numberedBefore);
      expect(await referrals.statementPage(`${link.slice(0, -2)}${link.endsWith("xx") ? "yy" : "xx"}`)).toBeNull();
      expect(await referrals.statementPage(token!)).toBeNull();
    });

    test('"Issue last month\'s statements now" issues them once, two at once issuing one set numbered without gaps', async () => {
      const [kim, lou] = [await partner("Kim Ng", 4_000), await partner("Lou Ortiz", 4_000)];
      const now = new Date();
      // The 2nd of last month, noon in New York: last month whatever today is.
      const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 2, 17));
      await database.db.insert(ledgerEntries).values(
        [kim, lou].map((partnerId) => ({
          partnerId,
          kind: "adjustment" as const,
          amountMinor: 700,
          note: "Opening",
          recordedAt: lastMonth,
        })),
      );
      expect(await referrals.lastMonthUnissued(now)).toBeGreaterThanOrEqual(2);
      const [first, second] = await Promise.all([referrals.issueLastMonthNow(now), referrals.issueLastMonthNow(now)]);
      expect(first).toBeGreaterThanOrEqual(2);
      expect(second).toBe(0);
      expect(await referrals.lastMonthUnissued(now)).toBe(0);
      expect(await referrals.issueLastMonthNow(now)).toBe(0);
      const period = `${lastMonth.getUTCFullYear()}-${String(lastMonth.getUTCMonth() + 1).padStart(2, "0")}`;
      const issued = await database.db.select().from(partnerStatements).where(eq(partnerStatements.period, period));
      expect(issued.filter((statement) => [kim, lou].includes(statement.partnerId))).toHaveLength(2);
      // Numbers follow without gaps: this run's are the newest, one after another, and no number was spent.
      const numbers = await statementNumbers(database);
      expect(numbers).toEqual(numbers.map((_, index) => index + 1));
      const runs = issued.map((statement) => statement.number).sort((a, b) => a - b);
      expect(runs.slice(-first)).toEqual(numbers.slice(-first));
    });

    test("the ledger CSV of a month sums, partner by partner, to the month's statements, in numbers a spreadsheet sums", async () => {
      const [ana, bo] = await Promise.all([partner("Ana Cruz", 4_000), partner("Bo Park", 4_000)]);
      const at = (day: string) => new Date(`${day}T15:00:00Z`);
      // February 2025 is the opening balance; March 2025 the month.
      await database.db.insert(ledgerEntries).values([
        { partnerId: ana, kind: "adjustment", amountMinor: 1_500, note: "Carried over", recordedAt: at("2025-02-10") },
        {
          partnerId: ana,
          kind: "charge",
          amountMinor: 4_000,
          service: "Drain Services",
          zip: "10001",
          recordedAt: at("2025-03-03"),
        },
        {
          partnerId: ana,
          kind: "credit",
          amountMinor: -4_000,
          service: "Drain Services",
          zip: "10001",
          recordedAt: at("2025-03-09"),
        },
        {
          partnerId: ana,
          kind: "payment",
          amountMinor: -4_550,
          method: "Check",
          reference: "=1+1",
          recordedAt: at("2025-03-20"),
        },
        {
          partnerId: bo,
          kind: "charge",
          amountMinor: 4_000,
          service: "Leak",
          zip: "10002",
          recordedAt: at("2025-03-05"),
        },
        { partnerId: bo, kind: "adjustment", amountMinor: -125, note: "-Goodwill", recordedAt: at("2025-03-31") },
      ]);
      expect(await referrals.issueMonthlyStatements(at("2025-04-01"))).toBe(2);
      const statements = await database.db
        .select()
        .from(partnerStatements)
        .where(eq(partnerStatements.period, "2025-03"));
      const names = new Map([
        [ana, "Ana Cruz (Ana Cruz Plumbing)"],
        [bo, "@Bo Park (Bo Park Plumbing)"],
      ]);
      const range = parseLedgerRange(new URLSearchParams({ from: "2025-03" }));
      expect(range.ok).toBe(true);
      const csv = await ledgerCsv(database.db, (range as { range: { from: string; to: string } }).range, {
        timeZone: "America/New_York",
        currency: "USD",
        partnerNames: names,
      });
      const [headings, ...rows] = csv
        .trimEnd()
        .split("\r\n")
        .map((line) => [...`,${line}`.matchAll(/,("(?:[^"]|"")*"|[^,]*)/g)].map((match) => match[1]!));
      // QuickBooks Online reads the first three columns; the rest are mapped in Xero or left out.
      expect(headings).toEqual([
        "Date",
        "Description",
        "Amount",
        "Partner",
        "Kind",
        "Job",
        "Running balance",
        "Entry ID",
      ]);
      // Partners by name ("@" first), each one's entries in the order recorded.
      expect(rows.map((row) => [row[0], row[3], row[4], row[2], row[6]])).toEqual([
        ["03/05/2025", `'${names.get(bo)}`, "Charge", "40.00", "40.00"],
        ["03/31/2025", `'${names.get(bo)}`, "Adjustment", "-1.25", "38.75"],
        ["03/03/2025", names.get(ana), "Charge", "40.00", "55.00"],
        ["03/09/2025", names.get(ana), "Credit", "-40.00", "15.00"],
        ["03/20/2025", names.get(ana), "Payment", "-45.50", "-30.50"],
      ]);
      // Every amount and balance is a plain number (no guard, no quotes); text that could be a formula is guarded.
      for (const row of rows) for (const cell of [row[2]!, row[6]!]) expect(cell).toMatch(/^-?\d+\.\d{2}$/);
      expect(csv).toContain("Payment · Ana Cruz (Ana Cruz Plumbing) · Check · =1+1");
      expect(rows.find((row) => row[4] === "Adjustment")![1]).toBe(
        "Adjustment · @Bo Park (Bo Park Plumbing) · -Goodwill",
      );
      for (const partnerId of [ana, bo]) {
        const statement = statements.find((issued) => issued.partnerId === partnerId)!;
        const own = rows.filter((row) => row[3]!.endsWith(names.get(partnerId)!));
        const cents = own.reduce((sum, row) => sum + Math.round(Number(row[2]) * 100), 0);
        expect(cents).toBe(statement.closingMinor - statement.openingMinor);
        expect(Math.round(Number(own.at(-1)![6]) * 100)).toBe(statement.closingMinor);
      }
      for (const [from, to] of [
        ["2025-13", ""],
        ["2025-03", "2025-02"],
        ["2022-01", "2025-03"],
        ["", ""],
      ]) {
        expect(parseLedgerRange(new URLSearchParams({ from: from!, to: to! })).ok).toBe(false);
      }
    });
  });
}

describe('"Issue last month\'s statements now" on the Partners page', () => {
  let running: RunningServer;
  let cookie: string;

  beforeAll(async () => {
    running = await startServer(testEnv({}));
    await saveOperator(running.services.db, "ops@example.com", "a long enough password");
    const signedIn = await fetch(`${running.url}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: running.url },
      body: new URLSearchParams({ email: "ops@example.com", password: "a long enough password" }),
      redirect: "manual",
    });
    cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
  });
  afterAll(() => running?.close());

  const partnersPage = async () =>
    (await fetch(`${running.url}/admin/partners`, { headers: { Cookie: cookie } })).text();
  /** The form as the page rendered it: its one-time key, and the operator's answer to its question when given. */
  const issueNow = async (page: string, answer: Record<string, string> = {}) => {
    const formKey = /name="formKey" value="([^"]+\.issue-statements)"/.exec(page)?.[1];
    expect(formKey, "the Partners page offers to issue last month's statements").toBeDefined();
    return fetch(`${running.url}/admin/partners`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: running.url },
      body: new URLSearchParams({ intent: "issue-statements", formKey: formKey!, ...answer }),
      redirect: "manual",
    });
  };

  test("shows while last month's statements are unissued, asks first, does nothing until confirmed, then issues them once", async () => {
    const { db } = running.services;
    // Entries of last month recorded after the server's own start, which issued what was due then.
    const partnerId = await addPartner(db, {
      name: "Pat Doe",
      business: "Pat's Pipes",
      phone: "555-010-0000",
      email: "pat@example.com",
      services: ["Drain Services"],
      zipCodes: ["10001"],
      feeMinor: null,
      serviceFees: {},
    });
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 2, 17));
    await db
      .insert(ledgerEntries)
      .values({ partnerId, kind: "adjustment", amountMinor: 700, note: "Opening", recordedAt: lastMonth });
    const issuedCount = async () =>
      (await db.select().from(partnerStatements).where(eq(partnerStatements.partnerId, partnerId))).length;

    const page = await partnersPage();
    expect(page).toContain("Issue last month’s statements now");
    const asked = await issueNow(page);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("Issue last month&#x27;s statement now?");
    expect(await issuedCount()).toBe(0);

    // The question's own form carries the same key; a double click of "Yes" issues once.
    const [yes, again] = await Promise.all([
      issueNow(page, { confirmed: "yes" }),
      issueNow(page, { confirmed: "yes" }),
    ]);
    expect([yes.status, again.status]).toEqual([303, 303]);
    expect(await issuedCount()).toBe(1);
    expect(await partnersPage()).not.toContain("Issue last month’s statements now");
  });
});
