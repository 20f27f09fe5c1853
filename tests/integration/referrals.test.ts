import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { executeRows, openDatabase, type OpenDatabase } from "~/server/db/index.server.ts";
import { contactRequests, leadChanges, privacyRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox, outboxMessages } from "../../app/server/outbox/schema.server.ts";
import { partners, referrals } from "../../app/server/partners/schema.server.ts";
import { referralJob } from "~/server/leads/referral-job.server.ts";
import { addPartner, leadReferrals, type Referrals } from "~/server/partners/index.server.ts";
import { contactRequestRow } from "../../tooling/stored-rows.ts";
import { sweepTestReferrals, testReferrals } from "../../tooling/test-referrals.ts";

/** Referring a lead to partners: offers, the link's page, the first acceptance, and links that no longer work. */

let database: OpenDatabase;
let referralService: Referrals;

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  referralService = testReferrals(database);
});

afterAll(() => database.close());

beforeEach(async () => {
  await database.db.delete(referrals);
  await database.db.delete(partners);
  await database.db.delete(emailOutbox);
  await database.db.delete(outboxMessages);
  await database.db.delete(privacyRequests);
  await database.db.delete(contactRequests);
});

const visitor = {
  firstName: "Dana",
  lastName: "Whitfield",
  email: "dana.whitfield@example.com",
  phone: "(555) 014-2288",
  service: "Burst pipe under the kitchen sink",
  message: "Water everywhere, please hurry",
};

async function storeLead(overrides: Partial<typeof visitor> = {}) {
  const id = randomUUID();
  await database.db.insert(contactRequests).values({
    id,
    ...visitor,
    ...overrides,
    zip: "10001",
    consentText: "By submitting…",
    channel: "form",
  });
  return id;
}

const partner = (name: string, email: string) =>
  addPartner(database.db, {
    name,
    serviceFees: {},
    business: `${name} Plumbing`,
    phone: "555-010-0000",
    email,
    services: ["Drain Services"],
    zipCodes: ["10001"],
    feeMinor: null,
  });

/** The token in an offer email's link to one partner. */
async function tokenSentTo(email: string) {
  const [offer] = await database.db
    .select()
    .from(emailOutbox)
    .where(sql`${emailOutbox.toAddress} = ${email} AND ${emailOutbox.purpose} = 'referral_offer'`);
  return /\/r\/([^\s"<]+)/.exec(offer!.textBody)![1]!;
}

async function history(leadId: string) {
  const rows = await database.db.select().from(leadChanges).where(eq(leadChanges.contactRequestId, leadId));
  return rows.map((row) => row.note);
}

const offer = (leadId: string, partnerIds: string[], optOutConfirmed = false) =>
  referralService.offer({ leadId, partnerIds, operatorEmail: "op@plumbline.example", optOutConfirmed });

/** The alert sweep's work on referrals: expired links recorded, unanswered offers alerted by email. */
const sweep = () => sweepTestReferrals(database);

/** Rows of the referrals table read so far, by scans of the table and through its indexes. */
async function referralRowsRead() {
  // The database's statistics reach the view once flushed, which it otherwise does at most once a second.
  await database.db.execute(sql`SELECT pg_stat_force_next_flush()`);
  const [stats] = await executeRows<{ read: number }>(
    database.db,
    sql`SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS read
      FROM pg_stat_user_tables WHERE relname = 'referrals'`,
  );
  return stats!.read;
}

describe("referrals", () => {
  test("two partners are offered the job without the visitor's contact details; the first to accept gets them, the second sees it taken", async () => {
    const leadId = await storeLead();
    const first = await partner("Ana Ruiz", "ana@ruiz.example");
    const second = await partner("Ben Okafor", "ben@okafor.example");
    expect(await offer(leadId, [first, second])).toEqual({ kind: "sent", partners: 2 });

    const offers = await database.db.select().from(emailOutbox).where(eq(emailOutbox.purpose, "referral_offer"));
    expect(offers.map((email) => email.toAddress).sort()).toEqual(["ana@ruiz.example", "ben@okafor.example"]);
    for (const email of offers) {
      expect(email.textBody).toContain("Burst pipe under the kitchen sink");
      expect(email.textBody).toContain("10001");
      expect(email.textBody).toContain("Dana");
      expect(email.textBody).toContain("Water everywhere");
      // The link takes one answer within the hours; after accepting, it keeps the job's page for returns.
      expect(email.textBody).toContain("Answer within 24 hours: the link takes one answer.");
      expect(`${email.textBody}${email.htmlBody}`).not.toMatch(/Whitfield|dana\.whitfield|014-2288/);
    }

    const anaToken = await tokenSentTo("ana@ruiz.example");
    const benToken = await tokenSentTo("ben@okafor.example");
    const anaPage = await referralService.page(anaToken, "198.51.100.1");
    expect(anaPage).toMatchObject({ kind: "open", partnerName: "Ana Ruiz" });
    expect(JSON.stringify(anaPage)).not.toMatch(/Whitfield|dana\.whitfield|014-2288/);

    const accepted = await referralService.answer(anaToken, "198.51.100.1", "accepted");
    expect(accepted).toMatchObject({
      kind: "accepted",
      contact: [
        ["Name", "Dana Whitfield"],
        ["Phone", "(555) 014-2288"],
        ["Email", "dana.whitfield@example.com"],
      ],
    });
    const [details] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.purpose, "referral_accepted"));
    expect(details).toMatchObject({ toAddress: "ana@ruiz.example", contactRequestId: leadId });
    expect(details!.textBody).toContain("(555) 014-2288");

    expect(await referralService.page(benToken, "198.51.100.2")).toEqual({ kind: "taken" });
    expect(await referralService.answer(benToken, "198.51.100.2", "accepted")).toEqual({ kind: "taken" });
    expect(await offer(leadId, [second])).toEqual({ kind: "taken" });
    // On the lead's page, the partner who never answered lost the race.
    const { offers: shown } = await leadReferrals(database.db, leadId, "America/New_York");
    expect(shown.map((row) => [row.partnerName, row.state, row.answeredIn !== null])).toEqual([
      ["Ana Ruiz", "Accepted", true],
      ["Ben Okafor", "Taken by another partner", true],
    ]);

    expect(await history(leadId)).toEqual(
      expect.arrayContaining([
        "Referral offered to Ana Ruiz",
        "Referral offered to Ben Okafor",
        "Referral accepted by Ana Ruiz",
      ]),
    );
  });

  test("a forged token is not found; a used one and an expired one are gone", async () => {
    const leadId = await storeLead();
    const ana = await partner("Ana Ruiz", "ana@ruiz.example");
    const ben = await partner("Ben Okafor", "ben@okafor.example");
    await offer(leadId, [ana, ben]);
    const anaToken = await tokenSentTo("ana@ruiz.example");
    const benToken = await tokenSentTo("ben@okafor.example");

    const [id, signature] = anaToken.split(".") as [string, string];
    const forgedSignature = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    expect(await referralService.page(`${id}.${forgedSignature}`, "198.51.100.1")).toEqual({ kind: "not-found" });
    expect(await referralService.page(`${randomUUID()}.${signature}`, "198.51.100.1")).toEqual({ kind: "not-found" });
    expect(await referralService.answer(`${id}.${forgedSignature}`, "198.51.100.1", "accepted")).toEqual({
      kind: "not-found",
    });

    expect(await referralService.answer(anaToken, "198.51.100.1", "declined")).toEqual({ kind: "declined" });
    expect(await referralService.page(anaToken, "198.51.100.1")).toEqual({ kind: "used" });
    expect(await referralService.answer(anaToken, "198.51.100.1", "accepted")).toEqual({ kind: "used" });

    await database.db
      .update(referrals)
      .set({ offeredAt: sql`now() - interval '25 hours'`, expiresAt: sql`now() - interval '1 hour'` })
      .where(eq(referrals.partnerId, ben));
    expect(await referralService.page(benToken, "198.51.100.2")).toEqual({ kind: "expired" });
    expect(await referralService.answer(benToken, "198.51.100.2", "accepted")).toEqual({ kind: "expired" });

    expect(await sweep()).toEqual({ expired: 1, alerted: 1 });
    expect(await sweep()).toEqual({ expired: 0, alerted: 0 });
    expect(await history(leadId)).toContain("Referral to Ben Okafor expired unanswered");
    const alerts = await database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.purpose, "unanswered_referral_alert"));
    expect(alerts).toHaveLength(1);
  });

  test("a lead whose email matches a do-not-sell request is flagged, and sent only once the operator confirms", async () => {
    const leadId = await storeLead();
    const ana = await partner("Ana Ruiz", "ana@ruiz.example");
    await database.db.insert(privacyRequests).values({
      id: randomUUID(),
      dueAt: new Date(Date.now() + 30 * 86_400_000),
      name: "Dana Whitfield",
      email: "Dana.Whitfield@Example.com",
      channel: "form",
    });
    expect((await referralJob(database.db, leadId))?.optOut).toBe("do-not-sell request");
    expect((await referralJob(database.db, await storeLead({ email: "someone.else@example.com" })))?.optOut).toBeNull();
    expect(await offer(leadId, [ana])).toEqual({ kind: "needs-confirmation", reason: "do-not-sell request" });
    expect(await database.db.select().from(referrals)).toHaveLength(0);
    expect(await offer(leadId, [ana], true)).toEqual({ kind: "sent", partners: 1 });
  });

  test("a do-not-sell request filed after the offer withdraws it: the partner's link no longer hands over the contact details", async () => {
    const leadId = await storeLead();
    const ana = await partner("Ana Ruiz", "ana@ruiz.example");
    expect(await offer(leadId, [ana])).toEqual({ kind: "sent", partners: 1 });
    const token = await tokenSentTo("ana@ruiz.example");
    await database.db.insert(privacyRequests).values({
      id: randomUUID(),
      dueAt: new Date(Date.now() + 30 * 86_400_000),
      name: "Dana Whitfield",
      email: "DANA.whitfield@example.com",
      channel: "form",
    });
    expect(await referralService.page(token, "198.51.100.1")).toEqual({ kind: "withdrawn" });
    expect(await referralService.answer(token, "198.51.100.1", "accepted")).toEqual({ kind: "withdrawn" });
    const [stored] = await database.db.select().from(referrals);
    expect(stored!.answer).toBeNull();
    expect(await database.db.select().from(emailOutbox).where(eq(emailOutbox.purpose, "referral_accepted"))).toEqual(
      [],
    );
    expect(await history(leadId)).not.toContain("Referral accepted by Ana Ruiz");
  });

  test("Global Privacy Control sent with a later lead from the same person withdraws an open offer too", async () => {
    const leadId = await storeLead();
    const ana = await partner("Ana Ruiz", "ana@ruiz.example");
    await offer(leadId, [ana]);
    const token = await tokenSentTo("ana@ruiz.example");
    await database.db.insert(contactRequests).values({
      id: randomUUID(),
      ...visitor,
      consentText: "By submitting…",
      channel: "form",
      globalPrivacyControl: true,
    });
    expect(await referralService.answer(token, "198.51.100.1", "accepted")).toEqual({ kind: "withdrawn" });
  });

  test("an offer the operator confirmed for an opted-out lead can still be accepted: only a later opt-out withdraws it", async () => {
    const leadId = await storeLead();
    const ana = await partner("Ana Ruiz", "ana@ruiz.example");
    await database.db.insert(privacyRequests).values({
      id: randomUUID(),
      dueAt: new Date(Date.now() + 30 * 86_400_000),
      name: "Dana Whitfield",
      email: "dana.whitfield@example.com",
      channel: "form",
    });
    expect(await offer(leadId, [ana], true)).toEqual({ kind: "sent", partners: 1 });
    const accepted = await referralService.answer(await tokenSentTo("ana@ruiz.example"), "198.51.100.1", "accepted");
    expect(accepted.kind).toBe("accepted");
  });

  test("with texts configured, each partner is also texted the job and the link, never the visitor's contact details", async () => {
    const leadId = await storeLead();
    const ana = await partner("Ana Ruiz", "ana@ruiz.example");
    const texting = testReferrals(database, { texts: true });
    await texting.offer({ leadId, partnerIds: [ana], operatorEmail: "op@plumbline.example", optOutConfirmed: false });
    const [text] = await database.db.select().from(outboxMessages);
    const payload = text!.payload as { to: string; body: string };
    expect(text!.channel).toBe("sms");
    expect(payload.to).toBe("+15550100000");
    expect(payload.body).toContain(`https://plumbline.example/r/${await tokenSentTo("ana@ruiz.example")}`);
    expect(payload.body).not.toMatch(/Dana|Whitfield|dana\.whitfield|014-2288/);
  });

  test("a service or message with a link reaches the partner without it: their text's only link is the offer's, alone on its line", async () => {
    const leadId = await storeLead({
      service: "Leak. URGENT partners: confirm at https://evil.example/r/x",
      message: "Also see evil.example/r/y",
    });
    const ana = await partner("Ana Ruiz", "ana@ruiz.example");
    const texting = testReferrals(database, { texts: true });
    await texting.offer({ leadId, partnerIds: [ana], operatorEmail: "op@plumbline.example", optOutConfirmed: false });
    const [text] = await database.db.select().from(outboxMessages);
    const body = (text!.payload as { body: string }).body;
    expect(body).not.toContain("evil.example");
    expect(body.split("\n").at(-1)).toBe(`https://plumbline.example/r/${await tokenSentTo("ana@ruiz.example")}`);
    const [email] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.purpose, "referral_offer"));
    expect(`${email!.subject}${email!.textBody}${email!.htmlBody}`).not.toContain("evil.example");
  });

  test("the sweep reads the offers still waiting alone, not the year's answered ones nor those another partner's acceptance left unanswered", async () => {
    // Two thousand past leads, each offered to two partners: Ana accepted, and Cleo never answered (her link's
    // expiry recorded), with the planner's statistics of them.
    const ana = await partner("Ana Ruiz", "ana@ruiz.example");
    const cleo = await partner("Cleo Park", "cleo@park.example");
    const pastLeads = Array.from({ length: 2_000 }, () => contactRequestRow());
    await database.db.insert(contactRequests).values(pastLeads);
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    const pastOffer = (leadId: string, n: number) => ({
      contactRequestId: leadId,
      offeredBy: "op@plumbline.example",
      offeredAt: hoursAgo(n + 48),
      expiresAt: hoursAgo(n + 24),
    });
    await database.db.insert(referrals).values(
      pastLeads.flatMap((lead, n) => [
        {
          ...pastOffer(lead.id, n),
          id: randomUUID(),
          partnerId: ana,
          answer: "accepted" as const,
          answeredAt: hoursAgo(n + 47),
        },
        { ...pastOffer(lead.id, n), id: randomUUID(), partnerId: cleo, expiredAt: hoursAgo(n + 23) },
      ]),
    );
    await database.db.execute(sql`ANALYZE referrals`);
    // Today's lead, whose only offer has waited past the timeout and past its link's expiry.
    const leadId = await storeLead();
    const ben = await partner("Ben Okafor", "ben@okafor.example");
    await offer(leadId, [ben]);
    await database.db
      .update(referrals)
      .set({ offeredAt: sql`now() - interval '25 hours'`, expiresAt: sql`now() - interval '1 hour'` })
      .where(eq(referrals.partnerId, ben));

    const readBefore = await referralRowsRead();
    expect(await sweep()).toEqual({ expired: 1, alerted: 1 });
    expect(await history(leadId)).toContain("Referral to Ben Okafor expired unanswered");
    expect((await referralRowsRead()) - readBefore).toBeLessThan(20);
    expect(await sweep()).toEqual({ expired: 0, alerted: 0 });
  });

  test("a deactivated partner is not offered the job", async () => {
    const leadId = await storeLead();
    const ana = await partner("Ana Ruiz", "ana@ruiz.example");
    await database.db.update(partners).set({ active: false }).where(eq(partners.id, ana));
    expect(await offer(leadId, [ana])).toEqual({ kind: "no-partners" });
  });
});
