import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "~/server/db/index.server.ts";
import { partnerSettings, partners, referrals } from "../../app/server/partners/schema.server.ts";
import {
  addPartner,
  callablePartners,
  routingSettings,
  saveRoutingSettings,
  setPartnerActive,
  setPartnerPaused,
} from "~/server/partners/index.server.ts";
import { startPostgres, type TestPostgres } from "../../tooling/local-services.ts";

/**
 * Partners' availability on both databases: who may take a call for a ZIP code and a service at a moment (active,
 * taking calls, not paused, within their hours), and the Partners page's routing settings.
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
      callablePartners(database.db, { zip, service, at, timeZone: ZONE });

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
  });
}
