import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { contactRequests, privacyRequests } from "../leads/schema.server.ts";
import { siteEventCounts } from "./schema.server.ts";
import { DASHBOARD_TABLE_ROWS, conversionsPer100Views } from "~/lib/dashboard-figures.ts";
import { dailyAggregatesCsv, dashboardData } from "./dashboard.server.ts";
import { createSiteEventCounter } from "./site-event-counter.server.ts";

const today = new Date("2026-11-22T15:00:00Z");
const lead = (id: number, receivedAt: string, extra: Partial<typeof contactRequests.$inferInsert> = {}) => ({
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
  ...extra,
});
const count = (day: string, path: string, kind: string, n: number, extra: Record<string, string> = {}) => ({
  day,
  path,
  kind,
  count: n,
  ...extra,
});

describe("dashboard figures", () => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openDatabase({ pgliteDataDir: "memory://" });
    await database.db.insert(siteEventCounts).values([
      count("2026-11-22", "/", "view", 40, { source: "google", medium: "cpc", campaign: "spring" }),
      count("2026-11-22", "/", "call", 3, { placement: "hero", source: "google", medium: "cpc", campaign: "spring" }),
      count("2026-11-22", "/contact", "form", 2, { source: "google", medium: "cpc", campaign: "spring" }),
      count("2026-11-21", "/contact", "view", 10),
      count("2026-11-21", "/contact", "call", 1, { placement: "contact_hero" }),
      // Outside a 7-day range.
      count("2026-11-10", "/", "view", 1000),
    ]);
    await database.db.insert(contactRequests).values([
      lead(1, "2026-11-22T09:00:00Z", {
        landingPath: "/",
        utmSource: "google",
        utmMedium: "cpc",
        utmCampaign: "spring",
      }),
      lead(2, "2026-11-20T23:59:00Z", { landingPath: "/contact" }),
      lead(3, "2026-11-01T10:00:00Z"),
    ]);
    await database.db.insert(privacyRequests).values({
      id: "00000000-0000-4000-8000-000000000009",
      receivedAt: new Date("2026-11-21T10:00:00Z"),
      dueAt: new Date("2026-12-21T10:00:00Z"),
      name: "Bo",
      email: "bo@example.com",
      channel: "api",
    });
  });
  afterAll(() => database.close());

  it("sums views, calls, leads and opt-outs over the range, day by day, and breaks them down", async () => {
    const data = await dashboardData(database.db, 7, today);
    expect(data.from).toBe("2026-11-16");
    expect(data.to).toBe("2026-11-22");
    expect(data.totals).toEqual({ views: 50, calls: 4, leads: 2, optOuts: 1 });
    expect(data.days).toHaveLength(7);
    expect(data.days.at(-1)).toEqual({ day: "2026-11-22", views: 40, calls: 3, leads: 1, optOuts: 0 });
    expect(data.days.at(-3)).toEqual({ day: "2026-11-20", views: 0, calls: 0, leads: 1, optOuts: 0 });
    expect(data.byPage).toEqual({
      top: [
        { path: "/", views: 40, calls: 3, leads: 1 },
        { path: "/contact", views: 10, calls: 1, leads: 1 },
      ],
      rest: null,
    });
    expect(data.byPlacement).toEqual({
      top: [
        { placement: "hero", calls: 3 },
        { placement: "contact_hero", calls: 1 },
      ],
      rest: null,
    });
    expect(data.bySource.top[0]).toEqual({
      source: "google",
      medium: "cpc",
      campaign: "spring",
      views: 40,
      calls: 3,
      formStarts: 2,
      leads: 1,
    });
    expect(conversionsPer100Views(data.totals)).toBe(12);
    expect(conversionsPer100Views({ views: 0, calls: 1, leads: 0 })).toBeNull();
  });

  it("in the first hour after midnight reads yesterday as still open, beside the days that are over", async () => {
    const afterMidnight = await dashboardData(database.db, 7, new Date("2026-11-22T00:30:00Z"));
    const allDay = await dashboardData(database.db, 7, today);
    expect(afterMidnight.totals).toEqual(allDay.totals);
    expect(afterMidnight.days).toEqual(allDay.days);
    expect(afterMidnight.byPage).toEqual(allDay.byPage);
    expect(afterMidnight.byPlacement).toEqual(allDay.byPlacement);
    expect(afterMidnight.bySource).toEqual(allDay.bySource);
  });

  it(`shows the ${DASHBOARD_TABLE_ROWS} most active sources, and sums the rest in one row`, async () => {
    // 60 campaigns on a day of their own: campaign n has n calls, so the 10 quietest are the rest.
    await database.db
      .insert(siteEventCounts)
      .values(
        Array.from({ length: 60 }, (_, n) => [
          count("2026-11-19", "/", "call", n + 1, { placement: "hero", source: "ads", campaign: `c${n + 1}` }),
          count("2026-11-19", "/", "view", 2, { source: "ads", campaign: `c${n + 1}` }),
        ]).flat(),
      );
    try {
      const { bySource } = await dashboardData(database.db, 7, today);
      expect(bySource.top).toHaveLength(DASHBOARD_TABLE_ROWS);
      expect(bySource.top[0]).toMatchObject({ source: "ads", campaign: "c60", calls: 60 });
      expect(bySource.top.at(-1)).toMatchObject({ campaign: "c11", calls: 11 });
      // The rest: campaigns c1–c10 (55 calls, 20 views), google/cpc/spring (3 calls, 1 lead, 40 views) and the
      // direct visits (1 call, 1 lead, 10 views), which have fewer calls and leads than c11.
      expect(bySource.rest).toEqual({ rows: 12, figures: { views: 70, calls: 59, leads: 2 } });
    } finally {
      await database.db.delete(siteEventCounts).where(eq(siteEventCounts.day, "2026-11-19"));
    }
  });

  it("lists the range's daily aggregates in the CSV download, oldest first", async () => {
    let csv = "";
    for await (const chunk of dailyAggregatesCsv(database.db, 30, today)) csv += chunk;
    const [header, ...lines] = csv.trimEnd().split("\r\n");
    expect(header).toBe("day,path,kind,placement,source,medium,campaign,count");
    expect(
      lines.map((line) => line.split(",")).map(([day, path, kind, , , , , count]) => [day, path, kind, count]),
    ).toEqual([
      ["2026-11-10", "/", "view", "1000"],
      ["2026-11-21", "/contact", "call", "1"],
      ["2026-11-21", "/contact", "view", "10"],
      ["2026-11-22", "/", "call", "3"],
      ["2026-11-22", "/", "view", "40"],
      ["2026-11-22", "/contact", "form", "2"],
    ]);
  });

  it("shows counts written to a day that is over after the dashboard was read: a counter's late write and a deletion", async () => {
    const views = async () => (await dashboardData(database.db, 7, today)).days.find((day) => day.day === "2026-11-21");
    expect(await views()).toMatchObject({ views: 10, calls: 1 });
    // Another instance's counter writes the day before "today", after this one summed the days that are over.
    const counter = createSiteEventCounter({ run: database.run, flushMs: 60_000 });
    const event = { kind: "view", path: "/contact", placement: "", source: "", medium: "", campaign: "" } as const;
    counter.add(event, new Date("2026-11-21T23:59:59Z"));
    counter.add(event, new Date("2026-11-21T23:59:59Z"));
    await counter.close();
    const afterWrite = await dashboardData(database.db, 7, today);
    expect(afterWrite.days.find((day) => day.day === "2026-11-21")).toMatchObject({ views: 12, calls: 1 });
    expect(afterWrite.byPage.top.find((page) => page.path === "/contact")).toMatchObject({ views: 12 });
    expect(afterWrite.totals.views).toBe(52);

    await database.db.delete(siteEventCounts).where(eq(siteEventCounts.day, "2026-11-21"));
    expect(await views()).toMatchObject({ views: 0, calls: 0 });
    const afterDeletion = await dashboardData(database.db, 7, today);
    expect(afterDeletion.byPlacement.top).toEqual([{ placement: "hero", calls: 3 }]);
    expect(afterDeletion.totals).toMatchObject({ views: 40, calls: 3 });
  });
});
