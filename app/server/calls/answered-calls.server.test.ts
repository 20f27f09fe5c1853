import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import { numberedId, numberedIdSql } from "../../../tooling/stored-rows.ts";
import type { OpenDatabase } from "../db/db.server.ts";
import { answeredCallCounts, answeredCalls } from "./answered-calls.server.ts";
import { calls, type CallStatus } from "./schema.server.ts";

const from = new Date("2026-11-01T00:00:00Z");
const until = new Date("2026-11-16T00:00:00Z");

const call = (
  startedAt: string | Date,
  status: CallStatus,
  durationSeconds: number | null,
  utmSource: string | null,
  utmCampaign: string | null,
  clickIds: { gclid?: string; msclkid?: string } = {},
) => ({
  id: randomUUID(),
  callSid: `CA${randomUUID().replaceAll("-", "")}`,
  startedAt: new Date(startedAt),
  caller: "+15555550100",
  called: "+15555550199",
  line: "pool" as const,
  status,
  durationSeconds,
  utmSource,
  utmCampaign,
  ...clickIds,
});

describe.each(databasesToOpen())("answered calls on $name", ({ open }) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await open();
    await database.db.insert(calls).values([
      call("2026-11-07T15:00:00Z", "answered", 75, "google", "fall", { gclid: "Cj0-fall-1" }),
      call("2026-11-08T15:00:00Z", "answered", 60, "google", "fall", { gclid: "Cj0-fall-2" }),
      call("2026-11-07T16:00:00Z", "answered", 20, "google", "fall", { gclid: "Cj0-fall-3" }),
      call("2026-11-09T09:00:00Z", "answered", 300, "google", "spring"),
      call("2026-11-10T09:00:00Z", "answered", 90, null, null),
      call("2026-11-11T09:00:00Z", "answered", 90, "bing", "brand", { msclkid: "ms-brand-1" }),
      call("2026-11-12T09:00:00Z", "answered", 90, "google", "fall", { gclid: "" }),
      // Not answered, still being answered, or outside the range: none of these count.
      call("2026-11-07T17:00:00Z", "no-answer", null, "google", "fall"),
      call("2026-11-07T18:00:00Z", "voicemail", 80, "google", "fall"),
      call("2026-11-07T19:00:00Z", "answered", null, "google", "fall"),
      call("2026-10-31T23:59:59Z", "answered", 120, "google", "fall"),
      call("2026-11-16T00:00:00Z", "answered", 120, "google", "fall"),
    ]);
  });
  afterAll(() => database?.close());

  test("the conversions' list has every answered call of the range from a visit with an ad click id", async () => {
    const listed = await answeredCalls(database.db, from, until);
    expect(
      listed.map((row) => [row.source, row.campaign, row.durationSeconds, row.gclid ?? row.msclkid]).sort(),
    ).toEqual([
      ["bing", "brand", 90, "ms-brand-1"],
      ["google", "fall", 20, "Cj0-fall-3"],
      ["google", "fall", 60, "Cj0-fall-2"],
      ["google", "fall", 75, "Cj0-fall-1"],
    ]);
  });

  test("the campaigns' counts are of every answered call that lasted the minimum, ad click or not", async () => {
    const counted = await answeredCallCounts(database.db, from, until, 60);
    expect([...counted].sort((a, b) => `${a.source}/${a.campaign}`.localeCompare(`${b.source}/${b.campaign}`))).toEqual(
      [
        { source: "", campaign: "", calls: 1 },
        { source: "bing", campaign: "brand", calls: 1 },
        { source: "google", campaign: "fall", calls: 3 },
        { source: "google", campaign: "spring", calls: 1 },
      ],
    );
  });

  test("the campaigns' counts over days that are over and today follow a change to a call of a day that is over", async () => {
    const midnight = new Date(new Date().toISOString().slice(0, 10)).getTime();
    const lastWeek = new Date(midnight - 6 * 86_400_000);
    const tomorrow = new Date(midnight + 86_400_000);
    const at = (daysAgo: number) =>
      new Date(daysAgo === 0 ? Date.now() - 60_000 : midnight - daysAgo * 86_400_000 + 3_600_000);
    const rang = call(at(3), "ringing", null, "google", "winter");
    await database.db.insert(calls).values([rang, call(at(0), "answered", 90, "google", "winter")]);
    const winter = async () =>
      (await answeredCallCounts(database.db, lastWeek, tomorrow, 60)).find((row) => row.campaign === "winter")?.calls;
    expect(await winter()).toBe(1);
    // The call that rang three days ago is answered and its length known: Twilio's status callback, from any instance.
    await database.db.update(calls).set({ status: "answered", durationSeconds: 240 }).where(eq(calls.id, rang.id));
    expect(await winter()).toBe(2);
  });
});

describe.each(databasesToOpen())("the conversions' answered calls on $name, many", ({ open }) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await open();
    // More than a statement of the read takes (400): 399 a minute apart, two a microsecond apart across the end of the
    // first statement, 378 more, and 72 at one instant across the end of the second.
    await database.run(
      "answered-calls-fill",
      `INSERT INTO calls (id, call_sid, started_at, caller, called, line, status, duration_seconds, gclid)
      SELECT ${numberedIdSql}, 'CA' || lpad(n::text, 32, '0'),
        CASE
          WHEN n < 400 THEN timestamptz '2026-11-02 00:00:00Z' + n * interval '1 minute'
          WHEN n = 400 THEN timestamptz '2026-11-03 00:00:00.000001Z'
          WHEN n = 401 THEN timestamptz '2026-11-03 00:00:00.000002Z'
          WHEN n < 780 THEN timestamptz '2026-11-04 00:00:00Z' + n * interval '1 minute'
          ELSE timestamptz '2026-11-06 00:00:00Z'
        END,
        '+15555550100', '+15555550199', 'pool', 'answered', 90, 'gclid-' || n
      FROM generate_series(1, 851) AS n`,
      [],
    );
  });
  afterAll(() => database?.close());

  test("each call comes once, oldest first", async () => {
    const listed = await answeredCalls(database.db, from, until);
    expect(listed.map((row) => row.id)).toEqual(Array.from({ length: 851 }, (_, index) => numberedId(index + 1)));
  });
});
