import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { numberedId, numberedIdSql } from "../../../tooling/stored-rows.ts";
import { contactRequests } from "./schema.server.ts";
import { openRequestCounts } from "./lead-counts.server.ts";
import { INBOX_PAGE_SIZE, listInbox, parseInboxQuery, searchTerms, type InboxQuery } from "./inbox.server.ts";

let database: OpenDatabase;
const ZONE = "America/New_York";
const query = (overrides: Partial<InboxQuery>): InboxQuery => ({ q: "", status: "", ...overrides });
const idOf = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;
const params = (text: string) => new URLSearchParams(text);

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  const start = Date.UTC(2026, 10, 1, 12);
  await database.db.insert(contactRequests).values(
    Array.from({ length: 120 }, (_, index) => ({
      id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
      receivedAt: new Date(start + index * 60_000),
      firstName: index === 7 ? "Maria" : `First${index}`,
      lastName: index === 7 ? "O'Neil_Smith" : `Last${index}`,
      email: index === 8 ? "pipes%fan@example.com" : `person${index}@example.com`,
      phone: index === 9 ? "(555) 019-9123" : `+1 212 700 ${String(1000 + index)}`,
      service: "Leak",
      message: "Help",
      consentText: "By submitting…",
      channel: "form",
      status: index % 10 === 0 ? ("Booked" as const) : ("New" as const),
    })),
  );
});

afterAll(() => database?.close());

describe("inbox query string", () => {
  test("defaults to the newest page, no search, every status", () => {
    expect(parseInboxQuery(params(""))).toEqual({ q: "", status: "" });
    expect(parseInboxQuery(params(`before=${idOf(3)}&q=%20ann%20&status=Booked`))).toEqual({
      before: idOf(3),
      q: "ann",
      status: "Booked",
    });
  });

  test("refuses pages, searches and statuses out of bounds", () => {
    for (const bad of ["before=3", "after=abc", `before=${idOf(3)}x`, `before=${idOf(3)}&after=${idOf(5)}`]) {
      expect(parseInboxQuery(params(bad)), bad).toBeNull();
    }
    expect(parseInboxQuery(params(`q=${"a".repeat(101)}`))).toBeNull();
    expect(parseInboxQuery(params(`q=${"a".repeat(100)}`))?.q).toHaveLength(100);
    expect(parseInboxQuery(params("status=Deleted"))).toBeNull();
    expect(parseInboxQuery(params("status=new"))).toBeNull();
  });
});

describe("inbox search", () => {
  test("reads the digits of a search as a phone number, however it is written", () => {
    expect(searchTerms("555 0199")).toEqual({ text: "555 0199", digits: "5550199" });
    expect(searchTerms("(555) 019")).toEqual({ text: "(555) 019", digits: "555019" });
    expect(searchTerms("ann").digits).toBeNull();
    expect(searchTerms("a1").digits).toBeNull();
  });

  test("finds a lead by the digits of its phone number, by name and by email", async () => {
    const ids = async (q: string) => (await listInbox(database.db, query({ q }), ZONE)).rows.map((row) => row.id);
    const ninth = "00000000-0000-4000-8000-000000000009";
    expect(await ids("555 0199")).toEqual([ninth]);
    expect(await ids("(555) 019")).toEqual([ninth]);
    expect(await ids("5550199123")).toEqual([ninth]);
    expect(await ids("555-019-9124")).toEqual([]);
    expect(await ids("maria o'neil")).toEqual(["00000000-0000-4000-8000-000000000007"]);
    expect(await ids("PIPES%FAN")).toEqual(["00000000-0000-4000-8000-000000000008"]);
    // `%` and `_` are letters to search for, not wildcards.
    expect(await ids("s%f")).toEqual(["00000000-0000-4000-8000-000000000008"]);
    expect(await ids("o'neil_")).toEqual(["00000000-0000-4000-8000-000000000007"]);
  });

  test("finds, for one or two characters, the names with a word that is exactly them", async () => {
    const names = [
      ["Li", "Wang"],
      ["Anna", "Li"],
      ["Mary Li", "Chen"],
      ["Alice", "Lindqvist"],
      ["Oliver", "Xu"],
    ];
    const added = names.map(([firstName, lastName], index) => ({
      id: idOf(900 + index),
      firstName: firstName!,
      lastName: lastName!,
      email: `li.${index}@example.com`,
      phone: "+1 212 555 0101",
      service: "Leak",
      message: "Help",
      consentText: "By submitting…",
      channel: "form" as const,
    }));
    await database.db.insert(contactRequests).values(added);
    try {
      const found = async (q: string) =>
        (await listInbox(database.db, query({ q }), ZONE)).rows.map((row) => row.name).sort();
      expect(await found("li")).toEqual(["Anna Li", "Li Wang", "Mary Li Chen"]);
      expect(await found("XU")).toEqual(["Oliver Xu"]);
      expect(await found("x")).toEqual([]);
      // From three characters on, a search finds the text anywhere in a name or an email.
      expect(await found("lin")).toEqual(["Alice Lindqvist"]);
      expect((await found("li.")).length).toBe(5);
    } finally {
      await database.db.delete(contactRequests).where(
        inArray(
          contactRequests.id,
          added.map((row) => row.id),
        ),
      );
    }
  });

  test("filters by status", async () => {
    const booked = await listInbox(database.db, query({ status: "Booked" }), ZONE);
    expect(booked.total).toBe(12);
    expect(booked.rows.every((row) => row.status === "Booked")).toBe(true);
  });
});

describe("inbox paging", () => {
  test("shows 50 a page, newest first, in the operator's time zone (standard time again after 1 November)", async () => {
    const first = await listInbox(database.db, query({}), ZONE);
    expect(first).toMatchObject({ total: 120, newer: false, older: true });
    expect(first.rows).toHaveLength(INBOX_PAGE_SIZE);
    expect(first.rows[0]!.id).toBe(idOf(119));
    expect(first.rows[0]!.receivedAt).toBe("Nov 1, 2026, 8:59 AM EST");
    const second = await listInbox(database.db, query({ before: first.rows.at(-1)!.id }), ZONE);
    expect(second).toMatchObject({ newer: true, older: true });
    expect(second.rows.map((row) => row.id)).toEqual(Array.from({ length: 50 }, (_, index) => idOf(69 - index)));
    const last = await listInbox(database.db, query({ before: second.rows.at(-1)!.id }), ZONE);
    expect(last).toMatchObject({ newer: true, older: false });
    expect(last.rows).toHaveLength(20);
    expect(last.rows.at(-1)!.id).toBe(idOf(0));
    const back = await listInbox(database.db, query({ after: last.rows[0]!.id }), ZONE);
    expect(back).toEqual(second);
  });

  test("goes back to the newest page from fewer newer requests than a page, and keeps the search", async () => {
    const newest = await listInbox(database.db, query({ after: idOf(100) }), ZONE);
    expect(newest).toMatchObject({ newer: false, older: true });
    expect(newest.rows[0]!.id).toBe(idOf(119));
    const booked = await listInbox(database.db, query({ status: "Booked", before: idOf(50) }), ZONE);
    expect(booked.rows.map((row) => row.id)).toEqual([40, 30, 20, 10, 0].map(idOf));
    expect(booked).toMatchObject({ total: 12, newer: true, older: false });
    // A search with fewer matches than it counts pages through them too.
    const matching = await listInbox(database.db, query({ q: "example.com" }), ZONE);
    expect(matching).toMatchObject({ total: 120, newer: false, older: true });
    expect(matching.rows.map((row) => row.id)).toEqual(Array.from({ length: 50 }, (_, index) => idOf(119 - index)));
    const older = await listInbox(database.db, query({ q: "example.com", before: idOf(70) }), ZONE);
    expect(older.rows.map((row) => row.id)).toEqual(Array.from({ length: 50 }, (_, index) => idOf(69 - index)));
    expect(older).toMatchObject({ newer: true, older: true });
    expect(await listInbox(database.db, query({ q: "example.com", after: idOf(19) }), ZONE)).toEqual(older);
    const none = await listInbox(database.db, query({ q: "nobody-like-this", before: idOf(50) }), ZONE);
    expect(none).toMatchObject({ total: 0, rows: [], older: false });
  });
});

test("a search with many matches pages through them in order, first among the leads near the page", async () => {
  // 16,000 leads a minute apart. Of the newest 10,000 every fifth is a Kowalski (2,000, more than a search counts),
  // of the oldest 6,000 every 200th (30, fewer than a page among any 5,000 of them); every tenth lead is Booked (1,030
  // Booked Kowalskis), and three are Zielinskis. Each page must be the one a single statement over every lead gives.
  const inbox = await openDatabase({ pgliteDataDir: "memory://" });
  try {
    await inbox.run(
      "fill",
      `INSERT INTO contact_requests (id, first_name, last_name, email, phone, service, message, consent_text, channel,
         received_at, status)
       SELECT ${numberedIdSql}, 'Jan',
         CASE WHEN n % (CASE WHEN n > 6000 THEN 5 ELSE 200 END) = 0 THEN 'Kowalski'
           WHEN n IN (7, 6001, 15999) THEN 'Zielinski' ELSE 'Nowak' END,
         'jan' || n || '@example.com', '555-123-4567', 'Leak', 'Help', 'By submitting', 'api',
         timestamptz '2026-01-01' + n * interval '1 minute', CASE WHEN n % 10 = 0 THEN 'Booked' ELSE 'New' END
       FROM generate_series(1, 16000) AS n`,
      [],
    );
    const ids = (page: { rows: { id: string }[] }) => page.rows.map((row) => row.id);
    const page = (search: Partial<InboxQuery>) => listInbox(inbox.db, query(search), ZONE);
    // Every `step`th lead, newest first, from lead `from` down to lead `to`.
    const every = (step: number, from: number, to = 1) =>
      Array.from({ length: Math.floor(from / step) - Math.ceil(to / step) + 1 }, (_, index) =>
        numberedId(from - (from % step) - index * step),
      );

    const first = await page({ q: "kowalski" });
    expect(first).toMatchObject({ total: 1_001, countLimit: 1_000, newer: false, older: true });
    expect(ids(first)).toEqual(every(5, 16_000).slice(0, 50));
    const second = await page({ q: "kowalski", before: first.rows.at(-1)!.id });
    expect(ids(second)).toEqual(every(5, 16_000).slice(50, 100));
    const third = await page({ q: "kowalski", before: second.rows.at(-1)!.id });
    expect(ids(third)).toEqual(every(5, 16_000).slice(100, 150));
    expect(await page({ q: "kowalski", after: third.rows[0]!.id })).toEqual(second);
    expect(await page({ q: "kowalski", after: second.rows[0]!.id })).toEqual(first);

    // Fewer than a page among the 5,000 leads before lead 6,001: read by the indexes.
    const sparse = await page({ q: "kowalski", before: numberedId(6_001) });
    expect(sparse).toMatchObject({ newer: true, older: false });
    expect(ids(sparse)).toEqual(every(200, 6_000));
    expect(ids(await page({ q: "kowalski", after: sparse.rows[0]!.id }))).toEqual(every(5, 6_250, 6_005));

    const booked = await page({ q: "kowalski", status: "Booked" });
    expect(ids(booked)).toEqual(every(10, 16_000).slice(0, 50));
    const olderBooked = await page({ q: "kowalski", status: "Booked", before: booked.rows.at(-1)!.id });
    expect(ids(olderBooked)).toEqual(every(10, 16_000).slice(50, 100));
    expect(await page({ q: "kowalski", status: "Booked", after: olderBooked.rows[0]!.id })).toEqual(booked);

    expect(ids(await page({ q: "zielinski" }))).toEqual([15_999, 6_001, 7].map(numberedId));
  } finally {
    await inbox.close();
  }
});

test("a search's matches are counted to 1,000 and the whole inbox to 10,000", async () => {
  const inbox = await openDatabase({ pgliteDataDir: "memory://" });
  try {
    await inbox.run(
      "fill",
      `INSERT INTO contact_requests (id, first_name, last_name, email, phone, service, message, consent_text, channel)
       SELECT gen_random_uuid(), 'Jan', 'Kowalski', 'jan' || n || '@example.com', '555-123-4567', 'Leak', 'Help',
         'By submitting', 'api'
       FROM generate_series(1, 1005) AS n`,
      [],
    );
    expect(await listInbox(inbox.db, query({ q: "kowalski" }), ZONE)).toMatchObject({
      total: 1_001,
      countLimit: 1_000,
    });
    expect(await listInbox(inbox.db, query({}), ZONE)).toMatchObject({ total: 1_005, countLimit: 10_000 });
    expect(await listInbox(inbox.db, query({ status: "New" }), ZONE)).toMatchObject({
      total: 1_005,
      countLimit: 10_000,
    });
  } finally {
    await inbox.close();
  }
});

test("the navigation counts New leads and open opt-outs", async () => {
  expect(await openRequestCounts(database.db)).toEqual({ newLeads: 108, openOptOuts: 0 });
});
