import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { leadsForConversions } from "../leads/conversion-leads.server.ts";
import { contactRequests, leadChanges } from "../leads/schema.server.ts";
import { defaultConversionActions } from "./action-defaults.server.ts";
import { googleAdsCsv, microsoftAdsCsv, wallClockTime } from "./conversion-files.server.ts";
import { CLICK_WINDOW_DAYS, conversionRows } from "./conversion-rows.server.ts";

// Fixtures: leads as the intake stores them, with the click ids and times the files must carry. "Now" is
// 2026-03-20 12:00 UTC, so the 90-day window starts 2025-12-20 12:00 UTC; New York and Los Angeles moved their
// clocks forward on 2026-03-08 (07:00 and 10:00 UTC).
const now = new Date("2026-03-20T12:00:00Z");
const lead = (id: number, receivedAt: string, fields: Partial<typeof contactRequests.$inferInsert> = {}) => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  receivedAt: new Date(receivedAt),
  firstName: "Ann",
  lastName: "Lee",
  email: "ann@example.com",
  phone: "555-123-4567",
  service: "Leak",
  message: "Help",
  consentText: "By submitting…",
  channel: "form",
  ...fields,
});
const leads = [
  // Arrived at 01:30 EST and booked an hour later, at 03:30 EDT, with its own job value.
  lead(1, "2026-03-08T06:30:00Z", { gclid: "CjwKCAiA-a", status: "Booked", jobValueCents: 125_050 }),
  lead(2, "2026-03-10T14:00:00Z", { gbraid: "0AAAAA-gbraid-b" }),
  lead(3, "2026-03-11T16:15:30Z", { wbraid: "GhIK-wbraid-c", msclkid: "1a2b3c4d5e6f" }),
  // Clicked more than 90 days ago: booked since, but the platforms no longer take it.
  lead(4, "2025-12-19T12:00:00Z", { gclid: "CjwKCAiA-d-too-old", status: "Booked" }),
  lead(5, "2025-12-21T00:00:00Z", { gclid: "EAIaIQobChMI-e", msclkid: "f0e1d2c3b4a5" }),
  // Marked Spam, and stored under Global Privacy Control: never sent, whatever they hold. (Another person: GPC
  // with one lead keeps every lead of its sender's email out.)
  lead(6, "2026-03-12T10:00:00Z", { gclid: "CjwKCAiA-spam", msclkid: "spam00", status: "Spam" }),
  lead(7, "2026-03-12T11:00:00Z", {
    gclid: "CjwKCAiA-gpc",
    msclkid: "gpc00",
    globalPrivacyControl: true,
    email: "gpc@example.com",
  }),
  // The same person's lead sent without Global Privacy Control, their address written otherwise: kept out too.
  lead(9, "2026-03-14T09:00:00Z", { gclid: "CjwKCAiA-gpc-sibling", msclkid: "gpc01", email: "GPC@Example.com" }),
  // No click id at all.
  lead(8, "2026-03-13T11:00:00Z", { utmSource: "google" }),
];
const booked = (id: number, changedAt: string) => ({
  contactRequestId: `00000000-0000-4000-8000-00000000000${id}`,
  changedAt: new Date(changedAt),
  changedBy: "op@example.com",
  statusFrom: "Contacted" as const,
  statusTo: "Booked" as const,
});
// An action named like a formula: the cell must not run as one.
const actions = {
  ...defaultConversionActions,
  lead: { action: "lead" as const, name: "=Lead (form)", defaultValueCents: 2_500, enabled: true },
  booked: { action: "booked" as const, name: "Booked job", defaultValueCents: 20_000, enabled: true },
};

let database: OpenDatabase;

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  await database.db.insert(contactRequests).values(leads);
  await database.db.insert(leadChanges).values([booked(1, "2026-03-08T07:30:00Z"), booked(4, "2026-03-01T12:00:00Z")]);
});

afterAll(() => database?.close());

const expected = (name: string) => readFile(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

async function rowsFor(platform: "google" | "microsoft", withActions = actions) {
  const since = new Date(now.getTime() - CLICK_WINDOW_DAYS * 86_400_000);
  return [
    ...conversionRows(
      platform,
      { leads: await leadsForConversions(database.db, since), calls: [], referrals: [] },
      withActions,
      now,
    ),
  ];
}

describe("conversion files", () => {
  test("Google Ads: times in the zone across its clock change, gclid, gbraid and wbraid each in its column", async () => {
    const file = googleAdsCsv(await rowsFor("google"), { timeZone: "America/New_York", currency: "USD" });
    expect(file).toBe(await expected("google-ads-new-york.csv"));
  });

  test("Microsoft Advertising: msclkid only, in another zone and currency", async () => {
    const file = microsoftAdsCsv(await rowsFor("microsoft"), { timeZone: "America/Los_Angeles", currency: "EUR" });
    expect(file).toBe(await expected("microsoft-ads-los-angeles.csv"));
  });

  test("a switched-off action is left out", async () => {
    const rows = await rowsFor("google", { ...actions, lead: { ...actions.lead, enabled: false } });
    expect(rows.map((row) => row.key)).toEqual(["booked:00000000-0000-4000-8000-000000000001"]);
  });

  test('an accepted referral of a lead with a click id is a "Referral accepted" conversion worth its fee', async () => {
    const since = new Date(now.getTime() - CLICK_WINDOW_DAYS * 86_400_000);
    const leads = await leadsForConversions(database.db, since);
    const referral = (leadNumber: number) => ({
      referralId: `10000000-0000-4000-8000-00000000000${leadNumber}`,
      leadId: `00000000-0000-4000-8000-00000000000${leadNumber}`,
      acceptedAt: new Date("2026-03-15T18:00:00Z"),
      feeMinor: 4_550,
    });
    // Lead 8 has no click id, lead 6 is Spam: neither is ever sent.
    const rows = [
      ...conversionRows(
        "google",
        { leads, calls: [], referrals: [referral(1), referral(6), referral(8)] },
        actions,
        now,
      ),
    ];
    expect(rows.filter((row) => row.key.startsWith("referral:"))).toEqual([
      {
        key: "referral:10000000-0000-4000-8000-000000000001",
        clickIdKind: "gclid",
        clickId: "CjwKCAiA-a",
        name: "Referral accepted",
        time: new Date("2026-03-15T18:00:00Z"),
        valueCents: 4_550,
      },
    ]);
  });

  test("answered calls of at least 60 s become conversions; shorter ones do not", () => {
    const call = (id: string, durationSeconds: number) => ({
      id,
      answeredAt: new Date("2026-03-15T18:00:00Z"),
      durationSeconds,
      source: "google",
      campaign: "spring",
      gclid: `gclid-${id}`,
      gbraid: null,
      wbraid: null,
      msclkid: null,
    });
    const rows = [
      ...conversionRows(
        "google",
        { leads: [], calls: [call("long", 60), call("short", 59)], referrals: [] },
        actions,
        now,
      ),
    ];
    expect(rows).toEqual([
      {
        key: "call:long",
        clickIdKind: "gclid",
        clickId: "gclid-long",
        name: "Answered call",
        time: new Date("2026-03-15T18:00:00Z"),
        valueCents: 0,
      },
    ]);
  });

  test("wall-clock times skip the missing hour and are in the zone, not the server's", () => {
    expect(wallClockTime(new Date("2026-03-08T06:59:59Z"), "America/New_York")).toBe("2026-03-08 01:59:59");
    expect(wallClockTime(new Date("2026-03-08T07:00:00Z"), "America/New_York")).toBe("2026-03-08 03:00:00");
    expect(wallClockTime(new Date("2026-03-29T01:00:00Z"), "Europe/Amsterdam")).toBe("2026-03-29 03:00:00");
    expect(wallClockTime(new Date("2026-06-01T00:00:00Z"), "UTC")).toBe("2026-06-01 00:00:00");
  });
});
