import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import type { OpenDatabase } from "../db/db.server.ts";
import { callsCsv } from "./calls-csv.server.ts";
import { calls } from "./schema.server.ts";

const call = (startedAt: Date) => ({
  id: randomUUID(),
  callSid: `CA${randomUUID().replaceAll("-", "")}`,
  startedAt,
  caller: "+15555550100",
  called: "+15555550199",
  line: "pool" as const,
  status: "answered" as const,
  durationSeconds: 75,
});

describe.each(databasesToOpen())("the calls CSV on $name", ({ open }) => {
  let database: OpenDatabase;
  // More calls than several of the download's statements read (100 each): 150 started at the same instant, across
  // the end of the second statement, and two a microsecond apart, across the end of the third. Each must be in the
  // file once.
  const sameInstant = new Date("2026-11-02T09:00:00.000Z");
  const stored = [
    ...Array.from({ length: 148 }, (_, index) => call(new Date(Date.parse("2026-11-01T08:00:00Z") + index * 60_000))),
    ...Array.from({ length: 150 }, () => call(sameInstant)),
    {
      ...call(new Date("2026-11-03T10:00:00Z")),
      landingPath: "/drain-services",
      utmSource: "google",
      utmCampaign: "drains-fall",
      gclid: "Cj0-fall",
      fbclid: "fb-1",
    },
  ];
  beforeAll(async () => {
    database = await open();
    await database.db.insert(calls).values(stored);
    await database.run(
      "calls-csv-test-microsecond",
      `INSERT INTO calls (id, call_sid, started_at, caller, called, line, status)
      VALUES ($1, 'CAmicro1', '2026-11-03 10:00:00.000001+00', '+15555550100', '+15555550199', 'pool', 'ringing'),
        ($2, 'CAmicro2', '2026-11-03 10:00:00.000002+00', '+15555550100', '+15555550199', 'pool', 'ringing')`,
      ["00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000001"],
    );
  });
  afterAll(() => database?.close());

  test("has every call once, oldest first, however many statements read them", async () => {
    let csv = "";
    for await (const chunk of callsCsv(database.db)) csv += chunk;
    const [header, ...lines] = csv.trimEnd().split("\r\n");
    expect(header).toMatch(/^id,started_at,caller,/);
    const ids = lines.map((line) => line.split(",")[0]);
    const byStart = [...stored].sort(
      (a, b) => a.startedAt.getTime() - b.startedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    expect(ids).toEqual([
      ...byStart.map((row) => row.id),
      "00000000-0000-4000-8000-000000000002",
      "00000000-0000-4000-8000-000000000001",
    ]);
    // A number starting with "+" would be run as a formula by a spreadsheet: it is kept as text.
    expect(lines[0]).toContain(",'+15555550100,");
    // Each of the visit's attribution values is under its own heading.
    const headings = header!.split(",");
    const attributed = lines.at(-3)!.split(",");
    const cell = (heading: string) => attributed[headings.indexOf(heading)];
    expect([cell("landing_path"), cell("utm_source"), cell("utm_medium"), cell("utm_campaign")]).toEqual([
      "/drain-services",
      "google",
      "",
      "drains-fall",
    ]);
    expect([cell("gclid"), cell("msclkid"), cell("fbclid")]).toEqual(["Cj0-fall", "", "fb-1"]);
  });
});
