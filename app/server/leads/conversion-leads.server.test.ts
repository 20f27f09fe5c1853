import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import {
  contactRequestRow,
  numberedId as leadId,
  numberedIdSql,
  numberedLeadsWithClickIds,
} from "../../../tooling/stored-rows.ts";
import type { OpenDatabase } from "../db/db.server.ts";
import { leadsForConversions } from "./conversion-leads.server.ts";
import { contactRequests } from "./schema.server.ts";

const since = new Date("2026-02-01T00:00:00Z");
/** The Booked changes are made today: a change of a day that is over makes the daily totals' triggers count again. */
const bookedFrom = new Date(new Date().toISOString().slice(0, 10) + "T00:00:01Z");

describe.each(databasesToOpen())("the leads a conversions download reads, on $name", ({ open }) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await open();
    // More leads with a click id than several of the read's statements take (400 each), oldest first: 399 a second
    // apart, then two a microsecond apart across the end of the first statement, 1,548 more, then 150 at one instant
    // across the end of the fifth.
    await database.run(
      "conversion-leads-fill",
      numberedLeadsWithClickIds(
        2099,
        `CASE
          WHEN n < 400 THEN timestamptz '2026-02-10 00:00:00Z' + n * interval '1 second'
          WHEN n = 400 THEN timestamptz '2026-02-10 01:00:00.000001Z'
          WHEN n = 401 THEN timestamptz '2026-02-10 01:00:00.000002Z'
          WHEN n < 1950 THEN timestamptz '2026-02-11 00:00:00Z' + n * interval '1 second'
          ELSE timestamptz '2026-02-12 00:00:00Z'
        END`,
      ),
      [],
    );
    // More Booked changes than a statement of them takes (2,000): five for each of the first 1,100 leads, the first
    // today (n seconds after `bookedFrom` for lead n), the others a minute apart (set back and booked again).
    await database.run(
      "conversion-leads-booked",
      `INSERT INTO lead_changes (contact_request_id, changed_at, changed_by, status_from, status_to)
      SELECT id, $1::timestamptz + (n - 1) * interval '1 second' + k * interval '1 minute', 'ops@example.com', 'New',
        'Booked'
      FROM generate_series(1, 1100) AS n
      CROSS JOIN LATERAL (SELECT ${numberedIdSql} AS id) AS lead
      CROSS JOIN generate_series(0, 4) AS k`,
      [bookedFrom.toISOString()],
    );
    await database.db.insert(contactRequests).values([
      // Neither is ever sent to an ad platform: one without a click id, one marked Spam.
      { ...contactRequestRow(leadId(3000)), receivedAt: new Date("2026-02-10T00:30:00Z") },
      { ...contactRequestRow(leadId(3001)), receivedAt: new Date("2026-02-10T00:30:00Z"), gclid: "x", status: "Spam" },
    ]);
  }, 120_000);
  afterAll(() => database?.close());

  test("every lead with a click id comes once, oldest first, with when it was first booked", async () => {
    const leads = await leadsForConversions(database.db, since);
    expect(leads.map((lead) => lead.id)).toEqual(Array.from({ length: 2099 }, (_, index) => leadId(index + 1)));
    expect(leads.every((lead, index) => lead.gclid === `gclid-${index + 1}`)).toBe(true);
    const firstBooked = (n: number) => new Date(bookedFrom.getTime() + (n - 1) * 1000).toISOString();
    expect(leads.slice(0, 1100).map((lead) => lead.bookedAt?.toISOString())).toEqual(
      Array.from({ length: 1100 }, (_, index) => firstBooked(index + 1)),
    );
    expect(leads.slice(1100).every((lead) => lead.bookedAt === null)).toBe(true);
  });
});
