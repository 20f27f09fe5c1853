import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { siteEventCounts } from "./schema.server.ts";
import { CAMPAIGNS_PER_DAY, createSiteEventCounter, OTHER_CAMPAIGN } from "./site-event-counter.server.ts";
import type { SiteEvent } from "./site-event.server.ts";

const view = (path: string): SiteEvent => ({ kind: "view", path, placement: "", source: "", medium: "", campaign: "" });

describe("site event counter", () => {
  it("writes everything gathered since the last write in one statement, summed per row", async () => {
    const statements: unknown[][] = [];
    const counter = createSiteEventCounter({
      run: async (_name, _text, params) => (statements.push(params), []),
      flushMs: 60_000,
      timeZone: "UTC",
    });
    const day = new Date("2026-11-22T10:00:00Z");
    counter.add(view("/"), day);
    counter.add(view("/"), day);
    counter.add(view("/about"), day);
    await counter.flush();
    await counter.flush();
    expect(statements).toHaveLength(1);
    expect(JSON.parse(statements[0]![0] as string)).toEqual([
      { day: "2026-11-22", path: "/", kind: "view", placement: "", source: "", medium: "", campaign: "", count: 2 },
      {
        day: "2026-11-22",
        path: "/about",
        kind: "view",
        placement: "",
        source: "",
        medium: "",
        campaign: "",
        count: 1,
      },
    ]);
    await counter.close();
  });

  it("keeps counts for the next write when the database is down, and caps the rows it holds", async () => {
    let down = true;
    const written: string[] = [];
    const counter = createSiteEventCounter({
      run: async (_name, _text, params) => {
        if (down) throw new Error("down");
        written.push(params[0] as string);
        return [];
      },
      flushMs: 60_000,
      timeZone: "UTC",
      maxBufferedRows: 2,
    });
    expect(counter.add(view("/"))).toBe(true);
    expect(counter.add(view("/about"))).toBe(true);
    expect(counter.add(view("/contact"))).toBe(false);
    expect(counter.add(view("/"))).toBe(true);
    const quiet = console.error;
    console.error = () => undefined;
    await counter.flush().finally(() => (console.error = quiet));
    down = false;
    await counter.close();
    expect(JSON.parse(written[0]!).map((row: { path: string; count: number }) => [row.path, row.count])).toEqual([
      ["/", 2],
      ["/about", 1],
    ]);
  });
});

describe("campaign values per day", () => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openDatabase({ pgliteDataDir: "memory://" });
  });
  afterAll(() => database.close());

  const campaignView = (campaign: string): SiteEvent => ({ ...view("/"), source: "made-up", medium: "cpc", campaign });
  const stored = (day: string) =>
    database.db
      .select({ campaign: siteEventCounts.campaign, source: siteEventCounts.source, count: siteEventCounts.count })
      .from(siteEventCounts)
      .where(eq(siteEventCounts.day, day));

  it(`counts at most ${CAMPAIGNS_PER_DAY} distinct campaigns a day as themselves, the rest as ${OTHER_CAMPAIGN}`, async () => {
    const counter = createSiteEventCounter({ run: database.run, flushMs: 60_000, timeZone: "UTC" });
    const day = new Date("2026-11-20T12:00:00Z");
    // 250 invented campaigns from one visitor, written in three batches as the counter's timer would.
    for (let n = 0; n < 250; n += 1) {
      counter.add(campaignView(`invented-${String(n).padStart(3, "0")}`), day);
      if (n === 120 || n === 190) await counter.flush();
    }
    await counter.flush();
    const rows = await stored("2026-11-20");
    expect(rows).toHaveLength(CAMPAIGNS_PER_DAY + 1);
    expect(rows.find((row) => row.campaign === OTHER_CAMPAIGN)).toEqual({
      campaign: OTHER_CAMPAIGN,
      source: OTHER_CAMPAIGN,
      count: 50,
    });
    // Nothing is lost: every view is counted, as itself or under "(other)".
    expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(250);

    // A campaign the day already holds is still counted as itself; another new one is not.
    counter.add(campaignView("invented-007"), day);
    counter.add(campaignView("one-more"), day);
    await counter.flush();
    const after = await stored("2026-11-20");
    expect(after).toHaveLength(CAMPAIGNS_PER_DAY + 1);
    expect(after.find((row) => row.campaign === "invented-007")!.count).toBe(2);
    expect(after.find((row) => row.campaign === OTHER_CAMPAIGN)!.count).toBe(51);

    // The next day starts afresh.
    counter.add(campaignView("one-more"), new Date("2026-11-21T00:00:01Z"));
    await counter.close();
    expect(await stored("2026-11-21")).toEqual([{ campaign: "one-more", source: "made-up", count: 1 }]);
  });
});
