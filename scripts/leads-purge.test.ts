import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../app/server/db.server.ts";
import { contactRequests, emailOutbox, privacyRequests, siteEventCounts } from "../app/server/db-schema.server.ts";
import { runLeadsCommand } from "./leads-commands.ts";

let database: OpenDatabase;
const DAY_MS = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY_MS);
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function contact(n: number, receivedAt: Date) {
  return {
    id: id(n),
    receivedAt,
    firstName: `Person ${n}`,
    lastName: "Lee",
    email: `p${n}@example.com`,
    phone: "555-123-4567",
    service: "Leak",
    message: "Help",
    consentText: "By submitting…",
    channel: "api",
  };
}

function email(n: number, owner: { contactRequestId?: string; privacyRequestId?: string }, sentAt: Date | null) {
  return {
    id: id(900 + n),
    ...owner,
    purpose: "test",
    messageId: `<m${n}@test>`,
    toAddress: "leads@example.com",
    subject: "Lead",
    textBody: "text",
    htmlBody: "<p>html</p>",
    sentAt,
  };
}

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  await database.db.insert(contactRequests).values([contact(1, ago(400)), contact(2, ago(400)), contact(3, ago(30))]);
  const optOut = (n: number, receivedDays: number, completed: boolean) => ({
    id: id(n),
    receivedAt: ago(receivedDays),
    dueAt: ago(receivedDays - 30),
    name: `Opt ${n}`,
    email: `o${n}@example.com`,
    channel: "form",
    completedAt: completed ? ago(receivedDays - 5) : null,
  });
  await database.db
    .insert(privacyRequests)
    .values([optOut(11, 800, true), optOut(12, 800, false), optOut(13, 400, true)]);
  await database.db.insert(emailOutbox).values([
    email(1, { contactRequestId: id(1) }, ago(399)),
    // Still owed to the operator: the request must survive the purge.
    email(2, { contactRequestId: id(2) }, null),
    email(11, { privacyRequestId: id(11) }, ago(799)),
  ]);
});

afterAll(() => database?.close());

test("purge deletes old contact requests and processed opt-outs past 24 months, keeping anything still owed", async () => {
  let output = "";
  const code = await runLeadsCommand(database.db, ["purge"], (text) => (output += text));
  expect(code).toBe(0);
  expect(output).toContain("Deleted 1 contact request(s) and 1 processed opt-out request(s)");
  const contacts = (await database.db.select().from(contactRequests)).map((row) => row.id).sort();
  expect(contacts).toEqual([id(2), id(3)]);
  const optOuts = (await database.db.select().from(privacyRequests)).map((row) => row.id).sort();
  expect(optOuts).toEqual([id(12), id(13)]);
  const emails = (await database.db.select().from(emailOutbox)).map((row) => row.id);
  expect(emails).toEqual([id(902)]);
});

test("purge deletes daily counts of views and calls older than 25 months", async () => {
  const day = (daysAgo: number) => ago(daysAgo).toISOString().slice(0, 10);
  await database.db.insert(siteEventCounts).values([
    { day: day(800), path: "/", kind: "view", count: 5 },
    { day: day(740), path: "/", kind: "view", count: 3 },
  ]);
  await runLeadsCommand(database.db, ["purge"], () => undefined);
  expect((await database.db.select().from(siteEventCounts)).map((row) => row.count)).toEqual([3]);
});

test("purge refuses a nonsense age", async () => {
  let output = "";
  expect(await runLeadsCommand(database.db, ["purge", "-3"], (text) => (output += text))).toBe(2);
  expect(output).toContain("Usage");
});
