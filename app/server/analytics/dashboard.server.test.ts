import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import { contactRequestRow } from "../../../tooling/stored-rows.ts";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import { addDays, localDate, zonedInstant } from "~/lib/operator-time.ts";
import { calls } from "../calls/schema.server.ts";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { contactRequests, privacyRequests } from "../leads/schema.server.ts";
import { siteEventCounts } from "./schema.server.ts";
import { DASHBOARD_TABLE_ROWS, conversionsPer100Views } from "~/lib/dashboard-figures.ts";
import { dailyAggregatesCsv, dashboardData, rangeDays } from "./dashboard.server.ts";
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
    const data = await dashboardData(database.db, 7, "UTC", today);
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
    const afterMidnight = await dashboardData(database.db, 7, "UTC", new Date("2026-11-22T00:30:00Z"));
    const allDay = await dashboardData(database.db, 7, "UTC", today);
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
      const { bySource } = await dashboardData(database.db, 7, "UTC", today);
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
    for await (const chunk of dailyAggregatesCsv(database.db, 30, "UTC", today)) csv += chunk;
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
    const views = async () =>
      (await dashboardData(database.db, 7, "UTC", today)).days.find((day) => day.day === "2026-11-21");
    expect(await views()).toMatchObject({ views: 10, calls: 1 });
    // Another instance's counter writes the day before "today", after this one summed the days that are over.
    const counter = createSiteEventCounter({ run: database.run, flushMs: 60_000, timeZone: "UTC" });
    const event = { kind: "view", path: "/contact", placement: "", source: "", medium: "", campaign: "" } as const;
    counter.add(event, new Date("2026-11-21T23:59:59Z"));
    counter.add(event, new Date("2026-11-21T23:59:59Z"));
    await counter.close();
    const afterWrite = await dashboardData(database.db, 7, "UTC", today);
    expect(afterWrite.days.find((day) => day.day === "2026-11-21")).toMatchObject({ views: 12, calls: 1 });
    expect(afterWrite.byPage.top.find((page) => page.path === "/contact")).toMatchObject({ views: 12 });
    expect(afterWrite.totals.views).toBe(52);

    await database.db.delete(siteEventCounts).where(eq(siteEventCounts.day, "2026-11-21"));
    expect(await views()).toMatchObject({ views: 0, calls: 0 });
    const afterDeletion = await dashboardData(database.db, 7, "UTC", today);
    expect(afterDeletion.byPlacement.top).toEqual([{ placement: "hero", calls: 3 }]);
    expect(afterDeletion.totals).toMatchObject({ views: 40, calls: 3 });
  });
});

describe.each(databasesToOpen())("the operator's days on $name", ({ open }) => {
  // In America/Chicago, Sunday 2026-11-01 has 25 hours: 02:00 CDT (UTC-5) becomes 01:00 CST (UTC-6).
  const timeZone = "America/Chicago";
  const now = new Date("2026-11-02T18:00:00Z"); // Monday 12:00 CST
  const leadAt = (receivedAt: string) => ({ ...contactRequestRow(), receivedAt: new Date(receivedAt) });
  const callAt = (startedAt: string) => ({
    id: randomUUID(),
    callSid: `CA${randomUUID().replaceAll("-", "")}`,
    startedAt: new Date(startedAt),
    caller: "+15555550100",
    called: "+15555550199",
    line: "pool" as const,
    status: "answered" as const,
    durationSeconds: 120,
  });
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await open();
    await database.db.insert(contactRequests).values([
      leadAt("2026-10-27T04:59:59Z"), // Mon Oct 26 23:59:59 CDT: the day before the range
      leadAt("2026-10-27T05:00:00Z"), // Tue Oct 27 00:00 CDT: the range's first moment
      leadAt("2026-11-01T04:30:00Z"), // Sat Oct 31 23:30 CDT (Nov 1 in UTC)
      leadAt("2026-11-01T05:00:00Z"), // Sun Nov 1 00:00 CDT
      leadAt("2026-11-02T05:30:00Z"), // Sun Nov 1 23:30 CST, the 25th hour of the day (Nov 2 in UTC)
      leadAt("2026-11-02T17:00:00Z"), // Mon Nov 2 11:00 CST, today
    ]);
    await database.db.insert(calls).values([callAt("2026-11-01T04:30:00Z"), callAt("2026-11-02T05:30:00Z")]);
    await database.db.insert(privacyRequests).values({
      id: randomUUID(),
      receivedAt: new Date("2026-11-01T04:30:00Z"),
      dueAt: new Date("2026-12-01T04:30:00Z"),
      name: "Bo",
      email: "bo@example.com",
      channel: "api",
    });
    const counter = createSiteEventCounter({ run: database.run, flushMs: 60_000, timeZone });
    const view = { kind: "view", path: "/", placement: "", source: "", medium: "", campaign: "" } as const;
    counter.add(view, new Date("2026-11-01T04:30:00Z"));
    counter.add(view, new Date("2026-11-02T05:30:00Z"));
    await counter.close();
  });
  afterAll(() => database?.close());

  const dayFigures = async () =>
    Object.fromEntries(
      (await dashboardData(database.db, 7, timeZone, now)).days.map((day) => [
        day.day,
        [day.views, day.calls, day.leads, day.optOuts],
      ]),
    );

  test("a lead, call, opt-out or view at 23:30 counts on that day, not the next UTC day; a 25-hour day counts its 25 hours", async () => {
    const data = await dashboardData(database.db, 7, timeZone, now);
    expect([data.from, data.to]).toEqual(["2026-10-27", "2026-11-02"]);
    expect(data.days.map((day) => day.day)).toEqual([
      "2026-10-27",
      "2026-10-28",
      "2026-10-29",
      "2026-10-30",
      "2026-10-31",
      "2026-11-01",
      "2026-11-02",
    ]);
    // [views, call taps, leads, opt-outs]
    expect(await dayFigures()).toMatchObject({
      "2026-10-27": [0, 0, 1, 0],
      "2026-10-31": [1, 0, 1, 1],
      "2026-11-01": [1, 0, 2, 0],
      "2026-11-02": [0, 0, 1, 0],
    });
    expect(data.totals).toEqual({ views: 2, calls: 0, leads: 5, optOuts: 1 });
    expect(data.phoneCalls.days).toEqual([
      { day: "2026-10-31", answered: 1, missed: 0 },
      { day: "2026-11-01", answered: 1, missed: 0 },
    ]);
  });

  test("the range starts and ends at the operator's midnights, and the period before ends where it starts", async () => {
    expect(rangeDays(7, timeZone, now)).toEqual({
      from: "2026-10-27",
      to: "2026-11-02",
      startsAt: new Date("2026-10-27T05:00:00Z"),
      endsAt: new Date("2026-11-03T06:00:00Z"),
    });
    // The dashboard's period before: the 7 days ending the moment before this one starts.
    const before = await dashboardData(database.db, 7, timeZone, new Date(Date.parse("2026-10-27T05:00:00Z") - 1));
    expect([before.from, before.to]).toEqual(["2026-10-20", "2026-10-26"]);
    expect(before.totals.leads).toBe(1);
  });

  test("today and yesterday, read as they are kept (yesterday's part before the UTC midnight apart), count each lead once on its day", async () => {
    const today = localDate(new Date(), timeZone);
    const yesterday = addDays(today, -1);
    const lateYesterday = new Date(zonedInstant(today, 0, timeZone).getTime() - 30 * 60_000); // 23:30
    await database.db
      .insert(contactRequests)
      .values([leadAt(lateYesterday.toISOString()), leadAt(new Date().toISOString())]);
    for (let view = 0; view < 2; view += 1) {
      const { days } = await dashboardData(database.db, 7, timeZone);
      expect(days.find((day) => day.day === yesterday)?.leads, `view ${view}`).toBe(1);
      expect(days.find((day) => day.day === today)?.leads, `view ${view}`).toBe(1);
    }
  });

  test("a lead stored late, on an operator's day already summed, counts on that day at once", async () => {
    expect((await dayFigures())["2026-10-31"]).toEqual([1, 0, 1, 1]);
    await database.db.insert(contactRequests).values(leadAt("2026-11-01T04:45:00Z")); // Oct 31 23:45 CDT
    expect((await dayFigures())["2026-10-31"]).toEqual([1, 0, 2, 1]);
  });
});
