import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import { contactRequestRow, numberedLeadsWithClickIds } from "../../../tooling/stored-rows.ts";
import type { OpenDatabase } from "../db/db.server.ts";
import { contactRequests } from "../leads/schema.server.ts";
import { createDownload, findDownload, purgeExpiredDownloads } from "./downloads.server.ts";
import { downloadedConversions } from "./schema.server.ts";

const now = new Date("2026-03-01T00:00:00Z");
const sources = { timeZone: "UTC", currency: "USD", answeredCalls: undefined };
/** The click ids in a Google Ads file, in its order. */
const clickIds = (file: string) =>
  file
    .split("\r\n")
    .slice(2, -1)
    .map((line) => line.split(",")[0]);

describe.each(databasesToOpen())("a conversions download on $name", ({ open }) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await open();
    // More conversions than a statement of a later download reads of an earlier one's keys (2,000): 2,500 leads, a
    // minute apart.
    await database.run(
      "downloads-fill",
      numberedLeadsWithClickIds(2500, "timestamptz '2026-02-10 00:00:00Z' + n * interval '1 minute'"),
      [],
    );
  }, 60_000);
  afterAll(() => database?.close());

  test("a later download holds the new conversions wherever they fall among those downloaded before", async () => {
    const first = await createDownload(database.db, "google", sources, now);
    expect(first.rowCount).toBe(2500);
    // New leads among the first candidates made, in the middle, and last.
    const lead = (gclid: string, receivedAt: string) => ({
      ...contactRequestRow(),
      gclid,
      receivedAt: new Date(receivedAt),
    });
    await database.db
      .insert(contactRequests)
      .values([
        lead("gclid-earliest", "2026-02-09T12:00:00Z"),
        lead("gclid-between", "2026-02-11T01:00:30Z"),
        lead("gclid-latest", "2026-02-28T12:00:00Z"),
      ]);
    const later = await createDownload(database.db, "google", sources, now);
    expect(later.rowCount).toBe(3);
    expect(clickIds(later.body)).toEqual(["gclid-earliest", "gclid-between", "gclid-latest"]);
    expect((await createDownload(database.db, "google", sources, now)).rowCount).toBe(0);
  });
});

describe.each(databasesToOpen())("the downloads' retention on $name", ({ open }) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(() => database?.close());

  test("a download made over a year ago goes, with the record of the conversions it held; a newer one stays", async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    // More conversions than one statement deletes of a download's record (2,000): 2,500 leads of 400 days ago.
    await database.run(
      "downloads-fill",
      numberedLeadsWithClickIds(2500, "now() - interval '400 days' + n * interval '1 second'"),
      [],
    );
    const old = await createDownload(database.db, "google", sources, daysAgo(399));
    expect(old.rowCount).toBe(2500);
    await database.db.insert(contactRequests).values({ ...contactRequestRow(), gclid: "gclid-recent" });
    const recent = await createDownload(database.db, "google", sources);
    expect(recent.rowCount).toBe(1);
    const held = (id: string) => database.db.$count(downloadedConversions, eq(downloadedConversions.downloadId, id));

    expect(await purgeExpiredDownloads(database.db)).toBe(1);
    expect(await findDownload(database.db, old.id)).toBeNull();
    expect(await held(old.id)).toBe(0);
    expect(await findDownload(database.db, recent.id)).toMatchObject({ rowCount: 1 });
    expect(await held(recent.id)).toBe(1);
  });
});
