import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import type { OpenDatabase } from "../db/db.server.ts";
import { callCounts } from "./call-counts.server.ts";
import { calls, type CallStatus } from "./schema.server.ts";

const DAY_MS = 86_400_000;
const midnight = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
/** 10:00 UTC of the day `days` before today, or a minute ago for today. */
const daysAgo = (days: number) =>
  new Date(days === 0 ? Date.now() - 60_000 : midnight - days * DAY_MS + 10 * 3_600_000);
const dayOf = (days: number) => daysAgo(days).toISOString().slice(0, 10);
/** The last 7 days, today included, as the dashboard asks for them. */
const startsAt = new Date(midnight - 6 * DAY_MS);
const endsAt = new Date(midnight + DAY_MS);

const call = (days: number, status: CallStatus, utmCampaign: string) => ({
  id: randomUUID(),
  callSid: `CA${randomUUID().replaceAll("-", "")}`,
  startedAt: daysAgo(days),
  caller: "+15555550100",
  called: "+15555550199",
  line: "pool" as const,
  status,
  durationSeconds: status === "answered" ? 120 : null,
  landingPath: "/drains",
  utmSource: "google",
  utmMedium: "cpc",
  utmCampaign,
});

async function counted(database: OpenDatabase) {
  const counts = await callCounts(database.db, startsAt, endsAt, "UTC");
  return {
    totals: counts.totals,
    days: Object.fromEntries(counts.days.map((day) => [day.day, [day.answered, day.missed]])),
    byPage: counts.byPage.map((page) => [page.path, page.answered, page.missed]),
    bySource: counts.bySource
      .map((row) => [row.campaign, row.answered, row.missed])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  };
}

describe.each(databasesToOpen())("the dashboard's call counts on $name", ({ open }) => {
  let database: OpenDatabase;
  const ringingThen = call(2, "ringing", "fall");
  const answeredThen = call(3, "answered", "fall");
  beforeAll(async () => {
    database = await open();
    await database.db
      .insert(calls)
      .values([answeredThen, ringingThen, call(0, "answered", "spring"), call(10, "answered", "fall")]);
  });
  afterAll(() => database?.close());

  test("the calls of the days that are over and of today, counted per day, page and campaign", async () => {
    expect(await counted(database)).toEqual({
      totals: { answered: 2, missed: 0 },
      days: { [dayOf(3)]: [1, 0], [dayOf(2)]: [0, 0], [dayOf(0)]: [1, 0] },
      byPage: [["/drains", 2, 0]],
      bySource: [
        ["fall", 1, 0],
        ["spring", 1, 0],
      ],
    });
  });

  test("a change to a call of a day that is over, from any instance, is counted on the next read", async () => {
    await counted(database);
    // The outcome of a call that rang before midnight arrives later, as Twilio's status callback.
    await database.db.update(calls).set({ status: "no-answer" }).where(eq(calls.id, ringingThen.id));
    expect(await counted(database)).toMatchObject({
      totals: { answered: 2, missed: 1 },
      days: { [dayOf(2)]: [0, 1] },
      bySource: [
        ["fall", 1, 1],
        ["spring", 1, 0],
      ],
    });
    // An operator's SQL, or a restore, adds a call of a day that is over; the retention purge deletes one.
    await database.db.insert(calls).values(call(4, "busy", "winter"));
    await database.db.delete(calls).where(eq(calls.id, answeredThen.id));
    expect(await counted(database)).toEqual({
      totals: { answered: 1, missed: 2 },
      days: { [dayOf(4)]: [0, 1], [dayOf(2)]: [0, 1], [dayOf(0)]: [1, 0] },
      byPage: [["/drains", 1, 2]],
      bySource: [
        ["fall", 0, 1],
        ["spring", 1, 0],
        ["winter", 0, 1],
      ],
    });
  });
});
