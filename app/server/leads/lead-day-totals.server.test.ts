import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import { contactRequestRow } from "../../../tooling/stored-rows.ts";
import { executeRows, type OpenDatabase } from "../db/db.server.ts";
import { leadCounts } from "./lead-counts.server.ts";
import { leadOutcomesBySource } from "./conversion-leads.server.ts";
import { leadFigures } from "./lead-day-totals.server.ts";
import { updateLead } from "./lead-update.server.ts";
import { purgeExpiredLeads } from "./retention.server.ts";
import { contactRequests, leadChanges, leadDayVersions } from "./schema.server.ts";

const DAY_MS = 86_400_000;
const midnight = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
/** noon of the UTC day `days` before today */
const daysAgo = (days: number) => new Date(midnight - days * DAY_MS + DAY_MS / 2);
const dayOf = (time: Date) => time.toISOString().slice(0, 10);
/** The last 30 days and today, as the dashboard asks for them. */
const startsAt = new Date(midnight - 30 * DAY_MS);
const endsAt = new Date(midnight + DAY_MS);

const lead = (receivedAt: Date, campaign: string) => ({
  ...contactRequestRow(),
  receivedAt,
  landingPath: "/",
  utmSource: "google",
  utmCampaign: campaign,
});

async function figures(database: OpenDatabase) {
  const [counts, outcomes] = await Promise.all([
    leadCounts(database.db, startsAt, endsAt, "UTC"),
    leadOutcomesBySource(database.db, startsAt, endsAt, "UTC"),
  ]);
  const byCampaign = <Row extends { campaign: string }>(rows: Row[]) =>
    [...rows].sort((a, b) => a.campaign.localeCompare(b.campaign));
  return {
    byDay: Object.fromEntries(counts.byDay.map((row) => [row.day, row.leads])),
    bySource: byCampaign(counts.bySource).map((row) => [row.campaign, row.leads]),
    outcomes: byCampaign(outcomes).map((row) => [row.campaign, row.leads, row.booked]),
  };
}

/** The days whose totals are stored at their current version. */
async function summedDays(database: OpenDatabase) {
  const rows = await database.db
    .select({ day: leadDayVersions.day })
    .from(leadDayVersions)
    .where(eq(leadDayVersions.summedVersion, leadDayVersions.version));
  return rows.map((row) => row.day).sort();
}

describe.each(databasesToOpen())("lead figures from daily totals on $name", ({ open }) => {
  let database: OpenDatabase;
  const spring = [lead(daysAgo(10), "spring"), lead(daysAgo(10), "spring"), lead(daysAgo(5), "spring")];
  const old = lead(daysAgo(400), "spring");
  const summer = lead(daysAgo(5), "summer");
  beforeAll(async () => {
    database = await open();
    await database.db.insert(contactRequests).values([...spring, old, summer, lead(daysAgo(0), "summer")]);
    // The old lead was booked 10 days ago: a booking of the period by a lead received before it.
    await database.db
      .insert(leadChanges)
      .values({ contactRequestId: old.id, changedAt: daysAgo(10), changedBy: "op@example.com", statusTo: "Booked" });
    await database.db.update(contactRequests).set({ status: "Booked" }).where(eq(contactRequests.id, old.id));
  });
  afterAll(() => database?.close());

  test("the days that are over are summed once, and read the same as the leads themselves", async () => {
    const expected = {
      byDay: { [dayOf(daysAgo(10))]: 2, [dayOf(daysAgo(5))]: 2, [dayOf(daysAgo(0))]: 1 },
      bySource: [
        ["spring", 3],
        ["summer", 2],
      ],
      outcomes: [
        ["spring", 3, 1],
        ["summer", 2, 0],
      ],
    };
    expect(await summedDays(database)).toEqual([]);
    expect(await figures(database)).toEqual(expected);
    // Every day of the period but today (and yesterday, in the first hour of today) is summed.
    const summed = await summedDays(database);
    expect(summed).toContain(dayOf(daysAgo(10)));
    expect(summed).toContain(dayOf(daysAgo(2)));
    expect(summed).not.toContain(dayOf(daysAgo(0)));
    expect(await figures(database)).toEqual(expected);
  });

  test("a lead marked Spam, booked, changed, stored late, deleted or purged changes the figures at once", async () => {
    await figures(database);
    // Marked Spam: still a lead received, no longer one for the campaign's outcomes.
    await updateLead(database.db, spring[0]!.id, { status: "Spam", note: null }, "op@example.com");
    // Booked 3 days ago (its history stored late), whereas it arrived 5 days ago.
    await database.db
      .insert(leadChanges)
      .values({ contactRequestId: summer.id, changedAt: daysAgo(3), changedBy: "op@example.com", statusTo: "Booked" });
    // Its campaign corrected.
    await database.db
      .update(contactRequests)
      .set({ utmCampaign: "autumn" })
      .where(eq(contactRequests.id, spring[2]!.id));
    // A lead received 7 days ago, stored only now.
    await database.db.insert(contactRequests).values(lead(daysAgo(7), "summer"));
    expect(await figures(database)).toEqual({
      byDay: { [dayOf(daysAgo(10))]: 2, [dayOf(daysAgo(7))]: 1, [dayOf(daysAgo(5))]: 2, [dayOf(daysAgo(0))]: 1 },
      bySource: [
        ["autumn", 1],
        ["spring", 2],
        ["summer", 3],
      ],
      outcomes: [
        ["autumn", 1, 0],
        ["spring", 1, 1],
        ["summer", 3, 1],
      ],
    });

    // The lead received 400 days ago goes with the retention purge, and its booking 10 days ago with it.
    expect((await purgeExpiredLeads(database.db)).contacts).toBe(1);
    // A person's leads deleted at their request.
    await database.db.delete(contactRequests).where(eq(contactRequests.id, summer.id));
    expect(await figures(database)).toEqual({
      byDay: { [dayOf(daysAgo(10))]: 2, [dayOf(daysAgo(7))]: 1, [dayOf(daysAgo(5))]: 1, [dayOf(daysAgo(0))]: 1 },
      bySource: [
        ["autumn", 1],
        ["spring", 2],
        ["summer", 2],
      ],
      outcomes: [
        ["autumn", 1, 0],
        ["spring", 1, 0],
        ["summer", 2, 0],
      ],
    });
    // The changed days were summed again at their new versions; no stale totals are kept.
    const [stale] = await executeRows<{ rows: number }>(
      database.db,
      sql`SELECT count(*)::int AS rows FROM lead_day_totals t JOIN lead_day_versions v USING (day)
        WHERE t.version <> v.version`,
    );
    expect(stale!.rows).toBe(0);
    expect(await summedDays(database)).toContain(dayOf(daysAgo(5)));
  });

  test("asked for the same period at once, the figures are read once; asked again after, they are read again", async () => {
    const [first, second] = await Promise.all([
      leadFigures(database.db, startsAt, endsAt, "UTC"),
      leadFigures(database.db, startsAt, endsAt, "UTC"),
    ]);
    expect(second).toBe(first);
    await database.db.insert(contactRequests).values(lead(daysAgo(0), "winter"));
    const after = await leadFigures(database.db, startsAt, endsAt, "UTC");
    expect(after.some((row) => row.campaign === "winter")).toBe(true);
    expect(first.some((row) => row.campaign === "winter")).toBe(false);
  });
});
