import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { contactRequests } from "../leads/schema.server.ts";
import { emailOutbox, outboxMessages } from "./schema.server.ts";
import { listUnsent, retryNow } from "./unsent.server.ts";
import { contactRequestRow, outboxRow } from "../../../tooling/stored-rows.ts";

let database: OpenDatabase;
beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
});
afterAll(() => database.close());

test("an email given up for good shows as such, and Retry now makes it due again", async () => {
  const leadId = randomUUID();
  const emailId = randomUUID();
  await database.db.insert(contactRequests).values(contactRequestRow(leadId));

  await database.db.insert(emailOutbox).values(
    outboxRow(leadId, {
      id: emailId,
      attempts: 3,
      nextAttemptAt: new Date(Date.now() + 86_400_000),
      failedAt: new Date(),
      lastError: "550 Recipient refused",
    }),
  );

  expect((await listUnsent(database.db, "America/New_York")).emails).toMatchObject([{ id: emailId, failed: true }]);

  // The other queue has no row with that id.
  expect(await retryNow(database.db, "messages", emailId)).toBe(false);
  expect(await retryNow(database.db, "emails", emailId)).toBe(true);
  const [row] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.id, emailId));
  expect(row!.failedAt).toBeNull();
  expect(row!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
  expect((await listUnsent(database.db, "America/New_York")).emails).toMatchObject([{ id: emailId, failed: false }]);
});

test("a message given up for good is listed by channel and purpose, without its payload, and Retry now makes it due again", async () => {
  const id = randomUUID();
  await database.db.insert(outboxMessages).values({
    id,
    channel: "sms",
    purpose: "unanswered_lead_alert",
    payload: { to: "+15550199123", body: "A lead waits" },
    attempts: 5,
    nextAttemptAt: new Date(Date.now() + 86_400_000),
    failedAt: new Date(),
    lastError: "Twilio answered 401",
  });

  const [listed] = (await listUnsent(database.db, "America/New_York")).messages;
  expect(listed).toMatchObject({ id, channel: "sms", purpose: "unanswered_lead_alert", attempts: 5, failed: true });
  expect(JSON.stringify(listed)).not.toContain("+15550199123");

  expect(await retryNow(database.db, "messages", id)).toBe(true);
  const [row] = await database.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
  expect(row!.failedAt).toBeNull();
  expect(row!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
  // Sent meanwhile: nothing to retry.
  await database.db.update(outboxMessages).set({ sentAt: new Date() }).where(eq(outboxMessages.id, id));
  expect(await retryNow(database.db, "messages", id)).toBe(false);
});
