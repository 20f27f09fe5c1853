import { describe, expect, test } from "vitest";
import { backupsToKeep } from "./retention.server.ts";

const DAY = 86_400_000;

describe("backup retention", () => {
  test("a year of daily backups keeps the last 7 days, one a week for 4 weeks and one a month for 12 months", () => {
    // Daily at 03:30 New York time (08:30 UTC), the newest on Wednesday 2026-11-25.
    const newest = Date.parse("2026-11-25T08:30:00Z");
    const all = Array.from({ length: 400 }, (_, index) => ({ createdAt: new Date(newest - index * DAY) }));
    const kept = [...backupsToKeep(all, "America/New_York")].map((backup) =>
      backup.createdAt.toISOString().slice(0, 10),
    );
    expect(kept.sort().reverse()).toEqual([
      // 7 days
      "2026-11-25",
      "2026-11-24",
      "2026-11-23",
      "2026-11-22",
      "2026-11-21",
      "2026-11-20",
      "2026-11-19",
      // the newest of each of 4 weeks (Sundays end weeks; this week's is today's), and of 12 months
      "2026-11-15",
      "2026-11-08",
      "2026-10-31",
      "2026-09-30",
      "2026-08-31",
      "2026-07-31",
      "2026-06-30",
      "2026-05-31",
      "2026-04-30",
      "2026-03-31",
      "2026-02-28",
      "2026-01-31",
      "2025-12-31",
    ]);
  });

  test("several backups in a day keep only the newest of that day", () => {
    const at = (iso: string) => ({ createdAt: new Date(iso) });
    const [morning, noon] = [at("2026-11-25T08:30:00Z"), at("2026-11-25T17:00:00Z")];
    expect([...backupsToKeep([morning, noon], "America/New_York")]).toEqual([noon]);
  });
});
