import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { openDatabase, type OpenDatabase } from "~/server/db/index.server.ts";
import { contactRequests, leadChanges, privacyRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { autoReferrals, partnerSettings, partners, referrals } from "../../app/server/partners/schema.server.ts";
import { referralToken } from "../../app/server/partners/referral-token.server.ts";
import {
  addPartner,
  callablePartners,
  createAutoReferrals,
  routeCallsOn,
  routingSettings,
  saveRoutingSettings,
  setPartnerActive,
  setPartnerPaused,
  type AutoReferrals,
  type Referrals,
} from "~/server/partners/index.server.ts";
import { wallClock } from "~/lib/operator-time.ts";
import { contactRequestRow } from "../../tooling/stored-rows.ts";
import { startPostgres, type TestPostgres } from "../../tooling/local-services.ts";
import { sweepTestReferrals, TEST_TOKEN_KEY, testReferrals } from "../../tooling/test-referrals.ts";

/**
 * Partners' availability on both databases: who may take a call for a ZIP code and a service at a moment (active,
 * taking calls, not paused, within their hours), the Partners page's routing settings, and new leads referred by
 * the same rules.
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

const ZONE = "America/New_York";
/** Tuesday 8 December 2026, 10:00 in New York. */
const TUESDAY_MORNING = new Date("2026-12-08T15:00:00Z");
/** Tuesday 8 December 2026, 22:00 in New York. */
const TUESDAY_NIGHT = new Date("2026-12-09T03:00:00Z");

for (const driver of drivers) {
  describe(`partner availability on ${driver.name}`, () => {
    let database: OpenDatabase;
    beforeAll(async () => {
      database = await driver.open();
    });
    afterAll(() => database?.close());
    beforeEach(async () => {
      await database.db.delete(autoReferrals);
      await database.db.delete(emailOutbox);
      await database.db.delete(privacyRequests);
      await database.db.delete(contactRequests);
      await database.db.delete(referrals);
      await database.db.delete(partners);
      await database.db.delete(partnerSettings);
    });

    const partner = (name: string, availability: Partial<Parameters<typeof addPartner>[1]> = {}) =>
      addPartner(database.db, {
        name,
        business: `${name} Plumbing`,
        phone: "555-010-0000",
        email: `${name.toLowerCase()}@partners.example`,
        services: ["Drain Services"],
        zipCodes: ["10001", "10002"],
        feeMinor: null,
        serviceFees: {},
        takesCalls: true,
        ...availability,
      });

    const callable = (at: Date, zip = "10001", service: string | null = "Drain Services") =>
      callablePartners(database.run, { zip, service, at, timeZone: ZONE });

    test("the routing settings are off, with no default fee per call, until the operator sets them", async () => {
      expect(await routingSettings(database.db)).toEqual({
        routeCalls: false,
        defaultCallFeeMinor: 0,
        referAutomatically: false,
      });
      await saveRoutingSettings(database.db, { routeCalls: true, defaultCallFeeMinor: 4500, referAutomatically: true });
      await saveRoutingSettings(database.db, {
        routeCalls: true,
        defaultCallFeeMinor: 5000,
        referAutomatically: false,
      });
      expect(await routingSettings(database.db)).toEqual({
        routeCalls: true,
        defaultCallFeeMinor: 5000,
        referAutomatically: false,
      });
    });

    test("calls see 'Route calls to partners' saved here at once, and saved by another instance within 5 seconds", async () => {
      const settings = { routeCalls: true, defaultCallFeeMinor: 0, referAutomatically: false };
      await saveRoutingSettings(database.db, settings);
      expect(await routeCallsOn(database.db)).toBe(true);
      await saveRoutingSettings(database.db, { ...settings, routeCalls: false });
      expect(await routeCallsOn(database.db)).toBe(false);
      // Another instance turns it on: this one's calls keep what it read for up to 5 seconds, then read it again.
      await database.db.update(partnerSettings).set({ routeCalls: true });
      expect(await routeCallsOn(database.db)).toBe(false);
      const now = performance.now();
      const later = vi.spyOn(performance, "now").mockReturnValue(now + 5_001);
      try {
        expect(await routeCallsOn(database.db)).toBe(true);
      } finally {
        later.mockRestore();
      }
    });

    test("a partner taking calls, serving the ZIP and the service within their hours may take the call, with their fee and cap", async () => {
      await saveRoutingSettings(database.db, {
        routeCalls: true,
        defaultCallFeeMinor: 4500,
        referAutomatically: false,
      });
      const ana = await partner("Ana", { callFeeMinor: 6000, callsPerDay: 5, priority: 1 });
      const ben = await partner("Ben", { hours: "Mon-Fri 07:00-19:00" });
      expect(await callable(TUESDAY_MORNING)).toEqual([
        { id: ana, business: "Ana Plumbing", phone: "555-010-0000", priority: 1, callFeeMinor: 6000, callsPerDay: 5 },
        {
          id: ben,
          business: "Ben Plumbing",
          phone: "555-010-0000",
          priority: 2,
          callFeeMinor: 4500,
          callsPerDay: null,
        },
      ]);
      // Any service: the service left open.
      expect((await callable(TUESDAY_MORNING, "10002", null)).map((found) => found.id)).toEqual([ana, ben]);
    });

    test("outside their hours, not taking calls, paused, deactivated, or for another ZIP or service: no call", async () => {
      const open = await partner("Open");
      await partner("Daytime", { hours: "Mon-Fri 07:00-19:00" });
      await partner("Formonly", { takesCalls: false });
      const paused = await partner("Paused");
      expect(await setPartnerPaused(database.db, paused, true)).toBe("paused");
      const gone = await partner("Gone");
      await setPartnerActive(database.db, gone, false);
      await partner("Elsewhere", { zipCodes: ["78701"] });
      await partner("Heaters", { services: ["Water Heater Services"] });
      expect((await callable(TUESDAY_NIGHT)).map((found) => found.id)).toEqual([open]);
      expect(await callable(TUESDAY_NIGHT, "99999")).toEqual([]);
    });

    test("a partner resumed takes calls again; pausing twice keeps the first time", async () => {
      const ana = await partner("Ana");
      expect(await setPartnerPaused(database.db, ana, true)).toBe("paused");
      expect(await setPartnerPaused(database.db, ana, true)).toBe("unchanged");
      expect(await callable(TUESDAY_MORNING)).toEqual([]);
      expect(await setPartnerPaused(database.db, ana, false)).toBe("resumed");
      expect(await setPartnerPaused(database.db, ana, false)).toBe("unchanged");
      expect((await callable(TUESDAY_MORNING)).map((found) => found.id)).toEqual([ana]);
      expect(await setPartnerPaused(database.db, "not-a-partner", true)).toBe("not-found");
    });

    test("the database refuses a priority out of 1-3, a cap of 0 and a negative fee per call", async () => {
      await expect(partner("Zero", { priority: 0 })).rejects.toThrow();
      await expect(partner("Zero", { callsPerDay: 0 })).rejects.toThrow();
      await expect(partner("Zero", { callFeeMinor: -1 })).rejects.toThrow();
    });

    describe("new leads referred by the rules", () => {
      let offers: Referrals;
      let rules: AutoReferrals;
      beforeAll(() => {
        offers = testReferrals(database, { timeZone: ZONE });
        rules = createAutoReferrals({
          db: database.db,
          run: database.run,
          referrals: offers,
          timeZone: ZONE,
          timeoutMinutes: 30,
          messageIdDomain: "plumbline.example",
          alert: (alert) => ({
            emails: [
              {
                purpose: alert.purpose,
                to: "leads@plumbline.example",
                replyTo: null,
                subject: alert.headline,
                text: alert.explanation,
                html: "",
              },
            ],
            messages: [],
          }),
          onQueued: () => undefined,
        });
      });
      beforeEach(() =>
        saveRoutingSettings(database.db, { routeCalls: false, defaultCallFeeMinor: 0, referAutomatically: true }),
      );

      async function storeLead(fields: Partial<typeof contactRequests.$inferInsert> = {}) {
        const id = randomUUID();
        await database.db
          .insert(contactRequests)
          .values({ ...contactRequestRow(id), service: "Drain Services", zip: "10001", ...fields });
        return id;
      }

      const history = async (leadId: string) =>
        (
          await database.db
            .select({ note: leadChanges.note })
            .from(leadChanges)
            .where(eq(leadChanges.contactRequestId, leadId))
            .orderBy(asc(leadChanges.changedAt))
        ).map((row) => row.note);

      const offeredTo = async (leadId: string) =>
        (
          await database.db
            .select({ email: emailOutbox.toAddress })
            .from(emailOutbox)
            .where(sql`${emailOutbox.contactRequestId} = ${leadId} AND ${emailOutbox.purpose} = 'referral_offer'`)
        )
          .map((row) => row.email)
          .sort();

      const alerts = async () =>
        (
          await database.db
            .select({ subject: emailOutbox.subject, text: emailOutbox.textBody })
            .from(emailOutbox)
            .where(sql`${emailOutbox.toAddress} = 'leads@plumbline.example'`)
        ).map((row) => `${row.subject}: ${row.text}`);

      /** The rules' step for a lead and its offers, moved back past the 30-minute timeout. */
      async function timeOut(leadId: string) {
        await database.db
          .update(autoReferrals)
          .set({ offeredAt: sql`now() - interval '31 minutes'` })
          .where(eq(autoReferrals.contactRequestId, leadId));
        await database.db
          .update(referrals)
          .set({ offeredAt: sql`${referrals.offeredAt} - interval '31 minutes'` })
          .where(eq(referrals.contactRequestId, leadId));
      }

      /** The alert sweep's part about referrals, as the server runs it after the rules' sweep. */
      const unansweredAlerts = () => sweepTestReferrals(database);

      /** Hours that are closed now, on the operator's clock: the hour twelve hours away. */
      function closedNow(): string {
        const hour = (wallClock(new Date(), ZONE).hour + 12) % 24;
        const pad = (value: number) => String(value).padStart(2, "0");
        return `Mon-Sun ${pad(hour)}:00-${pad((hour + 1) % 24)}:00`;
      }

      test("a new lead goes at once to the first priority's partners only, each line of its history saying why", async () => {
        await partner("Ana", { priority: 1, takesCalls: false });
        await partner("Ben", { priority: 1 });
        await partner("Cy", { priority: 2 });
        await partner("Dee", { priority: 1, hours: closedNow() });
        const leadId = await storeLead();
        await rules.referNew(leadId);
        expect(await offeredTo(leadId)).toEqual(["ana@partners.example", "ben@partners.example"]);
        expect((await history(leadId)).sort()).toEqual([
          "Referral offered automatically to Ana (priority 1, serves 10001 at this hour)",
          "Referral offered automatically to Ben (priority 1, serves 10001 at this hour)",
        ]);
        // Once only, whoever acts on it again: the sweep, or a second attempt.
        await rules.referNew(leadId);
        await rules.sweep();
        expect(await offeredTo(leadId)).toEqual(["ana@partners.example", "ben@partners.example"]);
      });

      test("up to three partners a lead, the one offered a referral longest ago first", async () => {
        for (const name of ["Ana", "Ben", "Cy", "Dee"]) await partner(name, { priority: 1 });
        const first = await storeLead();
        await rules.referNew(first);
        const firstOffers = await offeredTo(first);
        expect(firstOffers).toHaveLength(3);
        const second = await storeLead();
        await rules.referNew(second);
        const left = ["ana", "ben", "cy", "dee"].map((name) => `${name}@partners.example`);
        const notOfferedFirst = left.find((email) => !firstOffers.includes(email))!;
        expect(await offeredTo(second)).toContain(notOfferedFirst);
        expect(await offeredTo(second)).toHaveLength(3);
      });

      test("nobody accepting within the timeout: the next priority, with no unanswered alert; then the rules stop and alert", async () => {
        await partner("Ana", { priority: 1 });
        await partner("Cy", { priority: 2 });
        const leadId = await storeLead();
        await rules.referNew(leadId);
        expect(await offeredTo(leadId)).toEqual(["ana@partners.example"]);
        // Before the timeout, nothing moves.
        expect(await rules.sweep()).toBe(0);

        await timeOut(leadId);
        expect(await rules.sweep()).toBe(1);
        expect(await offeredTo(leadId)).toEqual(["ana@partners.example", "cy@partners.example"]);
        expect(await history(leadId)).toContain(
          "No partner of priority 1 accepted within 30 minutes: Referral offered automatically to Cy (priority 2, serves 10001 at this hour)",
        );
        expect((await unansweredAlerts()).alerted).toBe(0);

        await timeOut(leadId);
        await rules.sweep();
        expect(await history(leadId)).toContain(
          "No partner of priority 2 accepted within 30 minutes, and no partner of a later priority serves 10001 for Drain Services: referral stopped",
        );
        expect(await alerts()).toEqual([
          "No partner took a lead: No partner of priority 2 accepted within 30 minutes, and no partner of a later priority serves 10001 for Drain Services.",
        ]);
        expect((await unansweredAlerts()).alerted).toBe(0);
        await timeOut(leadId);
        expect(await rules.sweep()).toBe(0);
        expect(await offeredTo(leadId)).toHaveLength(2);
      });

      test("a lead accepted by the first priority is offered to nobody else", async () => {
        await partner("Ana", { priority: 1 });
        await partner("Cy", { priority: 2 });
        const leadId = await storeLead();
        await rules.referNew(leadId);
        const [offer] = await database.db.select().from(referrals).where(eq(referrals.contactRequestId, leadId));
        expect(await offers.answer(referralToken(TEST_TOKEN_KEY, offer!.id), "198.51.100.1", "accepted")).toMatchObject(
          {
            kind: "accepted",
          },
        );
        await timeOut(leadId);
        await rules.sweep();
        expect(await offeredTo(leadId)).toEqual(["ana@partners.example"]);
        expect(await alerts()).toEqual([]);
      });

      test("every partner of a priority declining moves the lead to the next at once", async () => {
        await partner("Ana", { priority: 1 });
        await partner("Cy", { priority: 3 });
        const leadId = await storeLead();
        await rules.referNew(leadId);
        const [offer] = await database.db.select().from(referrals).where(eq(referrals.contactRequestId, leadId));
        await offers.answer(referralToken(TEST_TOKEN_KEY, offer!.id), "198.51.100.1", "declined");
        expect(await rules.sweep()).toBe(1);
        expect(await history(leadId)).toContain(
          "Every partner of priority 1 declined: Referral offered automatically to Cy (priority 3, serves 10001 at this hour)",
        );
      });

      test("Global Privacy Control and do-not-sell leads are never referred by the rules; their history says so", async () => {
        await partner("Ana", { priority: 1 });
        const gpc = await storeLead({ globalPrivacyControl: true, email: "gpc@example.com" });
        await rules.referNew(gpc);
        const doNotSell = await storeLead({ email: "Optout@Example.com" });
        await database.db.insert(privacyRequests).values({
          id: randomUUID(),
          dueAt: new Date(Date.now() + 30 * 86_400_000),
          name: "Opt Out",
          email: "optout@example.com",
          channel: "form",
        });
        await rules.referNew(doNotSell);
        await rules.sweep();
        expect(await database.db.select().from(referrals)).toEqual([]);
        expect(await history(gpc)).toEqual([
          "Not referred automatically: the visitor opted out of sharing (Global Privacy Control)",
        ]);
        expect(await history(doNotSell)).toEqual([
          "Not referred automatically: the visitor opted out of sharing (do-not-sell request)",
        ]);
        expect(await alerts()).toEqual([]);
      });

      test("no partner for the lead: its history says why and the operator is alerted, once", async () => {
        await partner("Austin", { zipCodes: ["78701"], hours: closedNow() });
        const closed = await storeLead({ zip: "78701" });
        await rules.referNew(closed);
        await rules.referNew(closed);
        const nowhere = await storeLead({ zip: "99501", service: "Something else" });
        await rules.referNew(nowhere);
        expect(await history(closed)).toEqual([
          "Not referred automatically: no partner serves 78701 for Drain Services at this hour",
        ]);
        expect(await history(nowhere)).toEqual(["Not referred automatically: no partner serves 99501"]);
        expect((await alerts()).sort()).toEqual([
          "No partner for a new lead: The lead was not referred automatically: no partner serves 78701 for Drain Services at this hour.",
          "No partner for a new lead: The lead was not referred automatically: no partner serves 99501.",
        ]);
      });

      test("a lead the server stopped before referring is referred by the sweep; with the setting off, none is", async () => {
        await partner("Ana", { priority: 1 });
        await saveRoutingSettings(database.db, {
          routeCalls: false,
          defaultCallFeeMinor: 0,
          referAutomatically: false,
        });
        const off = await storeLead();
        await rules.referNew(off);
        await rules.sweep();
        expect(await offeredTo(off)).toEqual([]);
        expect(await history(off)).toEqual([]);

        await saveRoutingSettings(database.db, { routeCalls: false, defaultCallFeeMinor: 0, referAutomatically: true });
        await database.db.delete(contactRequests);
        const missed = await storeLead();
        await Promise.all([rules.sweep(), rules.sweep()]);
        expect(await offeredTo(missed)).toEqual(["ana@partners.example"]);
        // A paused partner gets no offers.
        await database.db.update(partners).set({ pausedAt: new Date() });
        const paused = await storeLead();
        await rules.referNew(paused);
        expect(await offeredTo(paused)).toEqual([]);
        expect(await history(paused)).toEqual([
          "Not referred automatically: no partner serves 10001 for Drain Services",
        ]);
      });
    });
  });
}
