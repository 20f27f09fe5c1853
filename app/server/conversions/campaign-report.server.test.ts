import type { LeadStatus } from "~/lib/lead-status.ts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { contactRequests, leadChanges } from "../leads/schema.server.ts";
import { campaignReport, campaignTables, type CampaignRow } from "./campaign-report.server.ts";
import { saveSpend } from "./spend.server.ts";

const lead = (id: number, receivedAt: string, source: string, campaign: string | null, status: LeadStatus = "New") => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  receivedAt: new Date(receivedAt),
  firstName: "A",
  lastName: "B",
  email: "a@example.com",
  phone: "5551234567",
  service: "Drain",
  message: "Help",
  consentText: "ok",
  channel: "api",
  utmSource: source,
  utmCampaign: campaign,
  status,
});

let database: OpenDatabase;

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  // November has 30 days: the range Nov 1–15 holds half of each month's spend.
  await saveSpend(database.db, [
    { month: "2026-11-01", source: "google", campaign: "spring", amountCents: 60_000 },
    { month: "2026-11-01", source: "google", campaign: "fall", amountCents: 20_000 },
    { month: "2026-11-01", source: "bing", campaign: "", amountCents: 10_000 },
  ]);
  await database.db.insert(contactRequests).values([
    lead(1, "2026-11-03T10:00:00Z", "google", "spring"),
    lead(2, "2026-11-04T10:00:00Z", "google", "spring"),
    // Received before the range, booked in it: a booked job of the range, not a lead of it.
    lead(3, "2026-10-30T10:00:00Z", "google", "spring"),
    lead(4, "2026-11-05T10:00:00Z", "bing", "brand"),
    lead(5, "2026-11-05T11:00:00Z", "bing", null),
    lead(6, "2026-11-06T10:00:00Z", "google", "spring", "Spam"),
  ]);
  await database.db.insert(leadChanges).values([
    {
      contactRequestId: lead(1, "", "", "").id,
      changedAt: new Date("2026-11-05T10:00:00Z"),
      changedBy: "op",
      statusTo: "Booked",
    },
    {
      contactRequestId: lead(3, "", "", "").id,
      changedAt: new Date("2026-11-02T10:00:00Z"),
      changedBy: "op",
      statusTo: "Booked",
    },
  ]);
});

afterAll(() => database?.close());

describe("cost and funnel by source and campaign", () => {
  test("cost, leads, booked jobs, cost per lead and per booked job; spend and no lead shows a dash", async () => {
    const counts = [
      { source: "google", campaign: "spring", views: 500, calls: 12, formStarts: 9 },
      { source: "bing", campaign: "brand", views: 40, calls: 1, formStarts: 2 },
    ];
    const rows = await campaignReport(
      database.db,
      { from: "2026-11-01", to: "2026-11-15" },
      "UTC",
      undefined,
      Promise.resolve(counts),
    );
    const shown = rows.map((row) => [
      row.source,
      row.allCampaigns ? "(all)" : row.campaign,
      row.costCents,
      row.views,
      row.calls,
      row.formStarts,
      row.leads,
      row.booked,
      row.costPerLeadCents,
      row.costPerBookedCents,
    ]);
    expect(shown).toEqual([
      ["google", "spring", 30_000, 500, 12, 9, 2, 2, 15_000, 15_000],
      ["google", "fall", 10_000, 0, 0, 0, 0, 0, null, null],
      ["bing", "(all)", 5_000, 40, 1, 2, 2, 0, 2_500, null],
      ["bing", "brand", null, 40, 1, 2, 1, 0, null, null],
      ["bing", "", null, 0, 0, 0, 1, 0, null, null],
    ]);
    expect(rows.every((row) => row.answeredCalls === null)).toBe(true);
  });

  test("with call tracking, the answered calls of at least 60 s per campaign", async () => {
    const minimums: number[] = [];
    const rows = await campaignReport(
      database.db,
      { from: "2026-11-01", to: "2026-11-15" },
      "UTC",
      {
        list: async () => [],
        counts: async (from, until, minSeconds) => {
          expect([from.toISOString(), until.toISOString()]).toEqual([
            "2026-11-01T00:00:00.000Z",
            "2026-11-16T00:00:00.000Z",
          ]);
          minimums.push(minSeconds);
          return [{ source: "google", campaign: "fall", calls: 3 }];
        },
      },
      Promise.resolve([]),
    );
    expect(minimums).toEqual([60]);
    expect(rows.find((row) => row.campaign === "fall")?.answeredCalls).toBe(3);
    expect(rows.find((row) => row.campaign === "spring")?.answeredCalls).toBe(0);
  });
});

describe("the dashboard's campaign tables", () => {
  const row = (campaign: string, figures: Partial<CampaignRow> = {}): CampaignRow => ({
    source: "google",
    campaign,
    allCampaigns: false,
    costCents: null,
    views: 10,
    calls: 2,
    formStarts: 1,
    leads: 3,
    booked: 1,
    answeredCalls: null,
    costPerLeadCents: null,
    costPerBookedCents: null,
    revenueCents: 500,
    profitCents: 500,
    ...figures,
  });

  test("show 50 rows each, sum the rest in one row, and total the cost table", () => {
    // Spend for the whole source comes first (the most cost), then 60 campaigns: 61 rows, 11 past the first 50.
    const whole = row("", { allCampaigns: true, costCents: 6_000, leads: 180, booked: 60, revenueCents: 30_000 });
    const campaigns = Array.from({ length: 60 }, (_, index) => row(`campaign-${index}`));
    const { cost, funnel } = campaignTables([whole, ...campaigns]);

    expect(cost.top).toEqual([whole, ...campaigns.slice(0, 49)]);
    expect(cost.rest).toEqual({
      rows: 11,
      figures: { costCents: 0, leads: 33, booked: 11, answeredCalls: 0, revenueCents: 5_500, profitCents: 5_500 },
    });
    // The whole source's row repeats its campaigns' leads and revenue: the total counts them once, and its cost.
    expect(cost.total).toEqual({
      costCents: 6_000,
      leads: 180,
      booked: 60,
      answeredCalls: 0,
      revenueCents: 30_000,
      profitCents: 24_000,
    });

    expect(funnel.top).toEqual(campaigns.slice(0, 50));
    expect(funnel.rest).toEqual({
      rows: 10,
      figures: { views: 100, calls: 20, formStarts: 10, leads: 30, booked: 10 },
    });
  });

  test("with 50 rows or fewer, show them all, with a total and no rest", () => {
    const { cost, funnel } = campaignTables([row("spring", { costCents: 1_000, profitCents: -500 })]);
    expect(cost.rest).toBeNull();
    expect(cost.total).toMatchObject({ costCents: 1_000, leads: 3, profitCents: -500 });
    expect(funnel).toEqual({ top: [row("spring", { costCents: 1_000, profitCents: -500 })], rest: null });
    expect(campaignTables([]).cost.total).toBeNull();
  });
});
