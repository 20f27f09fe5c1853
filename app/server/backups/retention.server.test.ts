import { describe, expect, test } from "vitest";
import { privacyPolicy } from "~/content/legal/privacy.ts";
import { backupsToKeep } from "./retention.server.ts";

const DAY = 86_400_000;
const days = (kept: Set<{ createdAt: Date }>) =>
  [...kept]
    .map((backup) => backup.createdAt.toISOString().slice(0, 10))
    .sort()
    .reverse();

describe("backup retention", () => {
  test("a year of daily backups keeps the last 7 days, one a week for 4 weeks and one a month for 3 months", () => {
    // Daily at 03:30 New York time (08:30 UTC), the newest on Wednesday 2026-11-25.
    const newest = Date.parse("2026-11-25T08:30:00Z");
    const all = Array.from({ length: 400 }, (_, index) => ({ createdAt: new Date(newest - index * DAY) }));
    expect(days(backupsToKeep(all, "America/New_York", new Date(newest)))).toEqual([
      // 7 days
      "2026-11-25",
      "2026-11-24",
      "2026-11-23",
      "2026-11-22",
      "2026-11-21",
      "2026-11-20",
      "2026-11-19",
      // the newest of each of 4 weeks (Sundays end weeks; this week's is today's), and of 3 months (this month's is
      // today's): no lead deleted after its year is in a backup for more than 3 months more
      "2026-11-15",
      "2026-11-08",
      "2026-10-31",
      "2026-09-30",
    ]);
  });

  test("the privacy policy says backups are kept up to 3 months", () => {
    expect(JSON.stringify(privacyPolicy)).toContain("kept for up to 3 months and then deleted");
  });

  test("nothing older than the 3 months is kept, when backups stopped for a while", () => {
    const at = (iso: string) => ({ createdAt: new Date(iso) });
    const [may, june, today] = [at("2026-05-31T08:30:00Z"), at("2026-06-30T08:30:00Z"), at("2026-11-25T08:30:00Z")];
    expect([...backupsToKeep([may, june, today], "America/New_York", today.createdAt)]).toEqual([today]);
  });

  test("several backups in a day keep only the newest of that day", () => {
    const at = (iso: string) => ({ createdAt: new Date(iso) });
    const [morning, noon] = [at("2026-11-25T08:30:00Z"), at("2026-11-25T17:00:00Z")];
    expect([...backupsToKeep([morning, noon], "America/New_York", noon.createdAt)]).toEqual([noon]);
  });
});
