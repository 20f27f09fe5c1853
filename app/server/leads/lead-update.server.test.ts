import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { contactRequests } from "./schema.server.ts";
import { purgeExpiredLeads } from "../leads/retention.server.ts";
import { leadDetail } from "./lead-detail.server.ts";
import { NOTE_MAX_LENGTH } from "~/lib/console-limits.ts";
import { updateLead, validateLeadUpdate } from "./lead-update.server.ts";

let database: OpenDatabase;
const id = "00000000-0000-4000-8000-000000000001";
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  await database.db.insert(contactRequests).values({
    id,
    firstName: "Ann",
    lastName: "Lee",
    email: "ann@example.com",
    phone: "555-123-4567",
    service: "Leak",
    message: "Help",
    consentText: "By submitting…",
    channel: "form",
  });
});

afterAll(() => database?.close());

describe("lead update", () => {
  test("accepts a known status and a note up to 2,000 characters, and nothing else", () => {
    expect(validateLeadUpdate(form({ status: "Contacted", note: "  Called back  " }))).toEqual({
      success: true,
      update: { status: "Contacted", note: "Called back" },
    });
    expect(validateLeadUpdate(form({ status: "Booked", note: " " }))).toEqual({
      success: true,
      update: { status: "Booked", note: null },
    });
    expect(validateLeadUpdate(form({ status: "Won" }))).toMatchObject({
      success: false,
      errors: { status: expect.any(String) },
    });
    expect(validateLeadUpdate(form({ note: "x" }))).toMatchObject({
      success: false,
      errors: { status: expect.any(String) },
    });
    expect(validateLeadUpdate(form({ status: "New", note: "x".repeat(NOTE_MAX_LENGTH + 1) }))).toEqual({
      success: false,
      errors: { note: "A note can be at most 2,000 characters." },
    });
  });

  test("records each change with who made it, and only real changes", async () => {
    expect(await updateLead(database.db, id, { status: "Contacted", note: null }, "op@example.com")).toBe(true);
    expect(
      await updateLead(database.db, id, { status: "Contacted", note: "Left a voicemail" }, "two@example.com"),
    ).toBe(true);
    // Saving the same status with no note changes nothing, and records nothing.
    expect(await updateLead(database.db, id, { status: "Contacted", note: null }, "op@example.com")).toBe(true);
    expect(await updateLead(database.db, id, { status: "Booked", note: "Thursday 9am" }, "op@example.com")).toBe(true);
    const lead = await leadDetail(database.db, id, "America/New_York");
    expect(lead?.status).toBe("Booked");
    expect(
      lead?.history.map(({ changedBy, statusFrom, statusTo, note }) => ({ changedBy, statusFrom, statusTo, note })),
    ).toEqual([
      { changedBy: "op@example.com", statusFrom: "Contacted", statusTo: "Booked", note: "Thursday 9am" },
      { changedBy: "two@example.com", statusFrom: null, statusTo: null, note: "Left a voicemail" },
      { changedBy: "op@example.com", statusFrom: "New", statusTo: "Contacted", note: null },
    ]);
    expect(lead?.history[0]?.changedAt).toMatch(/ E[SD]T$/);
  });

  test("changes nothing for an unknown request, and finds no request for a malformed id", async () => {
    expect(
      await updateLead(
        database.db,
        "00000000-0000-4000-8000-00000000dead",
        { status: "Spam", note: "x" },
        "op@example.com",
      ),
    ).toBe(false);
    expect(await leadDetail(database.db, "00000000-0000-4000-8000-00000000dead", "UTC")).toBeNull();
    expect(await leadDetail(database.db, "not-a-uuid'; --", "UTC")).toBeNull();
  });
});

test("the retention purge deletes an expired lead with its history", async () => {
  const expired = "00000000-0000-4000-8000-000000000002";
  await database.db.insert(contactRequests).values({
    id: expired,
    receivedAt: new Date(Date.now() - 400 * 86_400_000),
    firstName: "Old",
    lastName: "Lead",
    email: "old@example.com",
    phone: "555-123-0000",
    service: "Leak",
    message: "Help",
    consentText: "By submitting…",
    channel: "form",
  });
  await updateLead(database.db, expired, { status: "Closed", note: "Done long ago" }, "op@example.com");
  expect(await purgeExpiredLeads(database.db)).toEqual({ contacts: 1, optOuts: 0 });
  expect(await leadDetail(database.db, expired, "UTC")).toBeNull();
  expect(await leadDetail(database.db, id, "UTC")).not.toBeNull();
});
