import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { contactRequests } from "../leads/schema.server.ts";
import { emailOutbox } from "./schema.server.ts";
import { listUnsentEmails, retryEmailNow } from "./unsent.server.ts";
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

  expect(await listUnsentEmails(database.db, "America/New_York")).toMatchObject([{ id: emailId, failed: true }]);

  expect(await retryEmailNow(database.db, emailId)).toBe(true);
  const [row] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.id, emailId));
  expect(row!.failedAt).toBeNull();
  expect(row!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
  expect(await listUnsentEmails(database.db, "America/New_York")).toMatchObject([{ id: emailId, failed: false }]);
});
