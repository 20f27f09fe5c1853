import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { confirmationEmailLimits, contactRequests, leadSubmissions, privacyRequests } from "../leads/schema.server.ts";
import { emailOutbox } from "../outbox/schema.server.ts";
import { siteEventCounts } from "../analytics/schema.server.ts";
import { runLeadsCommand } from "./leads-commands.server.ts";

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

function email(
  n: number,
  owner: { contactRequestId?: string; privacyRequestId?: string },
  sentAt: Date | null,
  failedAt: Date | null = null,
) {
  return {
    failedAt,
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

let outboxDir: string;
const emlFile = (n: number) => join(outboxDir, `${id(900 + n)}.eml`);

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  outboxDir = await mkdtemp(join(tmpdir(), "plumbline-eml-"));
  await database.db
    .insert(contactRequests)
    .values([contact(1, ago(400)), contact(2, ago(400)), contact(3, ago(30)), contact(4, ago(400))]);
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
    // Given up for good: nothing is owed any more, so the request goes with the rest.
    email(4, { contactRequestId: id(4) }, null, ago(399)),
  ]);
  for (const n of [1, 2, 4]) await writeFile(emlFile(n), "From: x\r\n\r\nbody");
  await database.db.insert(leadSubmissions).values([
    { key: "expired", fingerprint: "f", requestId: id(3), expiresAt: ago(1 / 24) },
    { key: "live", fingerprint: "f", requestId: id(3), expiresAt: ago(-1 / 24) },
  ]);
  await database.db.insert(confirmationEmailLimits).values([
    { recipient: "old@example.com", windowStartedAt: ago(2), sent: 3 },
    { recipient: "today@example.com", windowStartedAt: ago(0), sent: 3 },
  ]);
});

afterAll(async () => {
  await database?.close();
  await rm(outboxDir, { recursive: true, force: true });
});

test("purge deletes old contact requests and processed opt-outs past 24 months, keeping anything still owed", async () => {
  let output = "";
  const code = await runLeadsCommand(database, ["purge"], (text) => (output += text), { outboxDir, timeZone: "UTC" });
  expect(code).toBe(0);
  expect(output).toContain("Deleted 2 contact request(s) and 1 processed opt-out request(s)");
  const contacts = (await database.db.select().from(contactRequests)).map((row) => row.id).sort();
  expect(contacts).toEqual([id(2), id(3)]);
  const optOuts = (await database.db.select().from(privacyRequests)).map((row) => row.id).sort();
  expect(optOuts).toEqual([id(12), id(13)]);
  const emails = (await database.db.select().from(emailOutbox)).map((row) => row.id);
  expect(emails).toEqual([id(902)]);
  // Their .eml files go with them; the one still owed stays.
  expect([1, 2, 4].map((n) => existsSync(emlFile(n)))).toEqual([false, true, false]);
  expect((await database.db.select().from(leadSubmissions)).map((row) => row.key)).toEqual(["live"]);
  expect((await database.db.select().from(confirmationEmailLimits)).map((row) => row.recipient)).toEqual([
    "today@example.com",
  ]);
});

test("purge deletes daily counts of views and calls older than 25 months", async () => {
  const day = (daysAgo: number) => ago(daysAgo).toISOString().slice(0, 10);
  await database.db.insert(siteEventCounts).values([
    { day: day(800), path: "/", kind: "view", count: 5 },
    { day: day(740), path: "/", kind: "view", count: 3 },
  ]);
  await runLeadsCommand(database, ["purge"], () => undefined, { timeZone: "UTC" });
  expect((await database.db.select().from(siteEventCounts)).map((row) => row.count)).toEqual([3]);
});

test("purge refuses a nonsense age", async () => {
  let output = "";
  expect(await runLeadsCommand(database, ["purge", "-3"], (text) => (output += text), { timeZone: "UTC" })).toBe(2);
  expect(output).toContain("Usage");
});
