import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { contactRequests } from "./schema.server.ts";
import { openRequestCounts } from "./lead-counts.server.ts";
import { INBOX_PAGE_SIZE, listInbox, parseInboxQuery, searchTerms, type InboxQuery } from "./inbox.server.ts";

let database: OpenDatabase;
const ZONE = "America/New_York";
const query = (overrides: Partial<InboxQuery>): InboxQuery => ({ page: 1, q: "", status: "", ...overrides });
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
  test("defaults to the first page, no search, every status", () => {
    expect(parseInboxQuery(params(""))).toEqual({ page: 1, q: "", status: "" });
    expect(parseInboxQuery(params("page=3&q=%20ann%20&status=Booked"))).toEqual({
      page: 3,
      q: "ann",
      status: "Booked",
    });
  });

  test("refuses pages, searches and statuses out of bounds", () => {
    for (const bad of ["page=0", "page=-1", "page=abc", "page=1.5", "page=10001", "page=99999999999999999999"]) {
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
    expect(await ids("%")).toEqual(["00000000-0000-4000-8000-000000000008"]);
    expect(await ids("o'neil_")).toEqual(["00000000-0000-4000-8000-000000000007"]);
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
    expect(first).toMatchObject({ total: 120, page: 1, pageCount: 3 });
    expect(first.rows).toHaveLength(INBOX_PAGE_SIZE);
    expect(first.rows[0]!.id).toBe("00000000-0000-4000-8000-000000000119");
    expect(first.rows[0]!.receivedAt).toBe("Nov 1, 2026, 8:59 AM EST");
    const last = await listInbox(database.db, query({ page: 3 }), ZONE);
    expect(last.rows).toHaveLength(20);
    expect(last.rows.at(-1)!.id).toBe("00000000-0000-4000-8000-000000000000");
  });

  test("shows the last page for a page past the end", async () => {
    const past = await listInbox(database.db, query({ page: 40 }), ZONE);
    expect(past).toMatchObject({ page: 3, pageCount: 3 });
    expect(past.rows).toHaveLength(20);
    const none = await listInbox(database.db, query({ q: "nobody-like-this", page: 2 }), ZONE);
    expect(none).toMatchObject({ total: 0, page: 1, pageCount: 1, rows: [] });
  });
});

test("the navigation counts New leads and open opt-outs", async () => {
  expect(await openRequestCounts(database.db)).toEqual({ newLeads: 108, openOptOuts: 0 });
});
