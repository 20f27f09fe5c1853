import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import { contactRequestRow } from "../../../tooling/stored-rows.ts";
import type { OpenDatabase } from "../db/db.server.ts";
import { newestLeadByPhone } from "./leads-by-phone.server.ts";
import { contactRequests } from "./schema.server.ts";

const lead = (id: string, phone: string, receivedAt: string) => ({
  ...contactRequestRow(id),
  phone,
  receivedAt: new Date(receivedAt),
});

describe.each(databasesToOpen())("the newest lead of a caller's number on $name", ({ open }) => {
  let database: OpenDatabase;
  const ids = {
    oldest: "00000000-0000-4000-8000-000000000001",
    newest: "00000000-0000-4000-8000-000000000002",
    between: "00000000-0000-4000-8000-000000000003",
    other: "00000000-0000-4000-8000-000000000004",
  };
  beforeAll(async () => {
    database = await open();
    // The same number written three ways, the newest stored neither first nor last; and another number.
    await database.db
      .insert(contactRequests)
      .values([
        lead(ids.oldest, "(555) 019-9123", "2026-11-01T09:00:00Z"),
        lead(ids.newest, "+1 555 019 9123", "2026-11-20T09:00:00Z"),
        lead(ids.between, "555.019.9123", "2026-11-10T09:00:00Z"),
        lead(ids.other, "555-019-4444", "2026-11-25T09:00:00Z"),
      ]);
  }, 60_000);
  afterAll(() => database.close());

  test("each number links to its newest lead, however either was written, and a number without leads to none", async () => {
    const newest = await newestLeadByPhone(database.db, ["+15550199123", "5550194444", "+15550190000", "911"]);
    expect(Object.fromEntries([...newest].map(([key, lead]) => [key, lead.id]))).toEqual({
      "5550199123": ids.newest,
      "5550194444": ids.other,
    });
  });
});
