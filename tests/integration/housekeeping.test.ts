import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServer } from "~/server/start-server.server.ts";
import { openDatabase } from "~/server/db/db.server.ts";
import { and, eq, inArray } from "drizzle-orm";
import { contactRequests, leadDayVersions } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { postJson, testEnv, validContact, waitUntil } from "../../tooling/local-services.ts";
import { contactRequestRow } from "../../tooling/stored-rows.ts";
import { createDownload, findDownload } from "~/server/conversions/index.server.ts";
import { addDays, localDate } from "~/lib/operator-time.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "plumbline-housekeeping-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const recentLead = { ...contactRequestRow(), receivedAt: new Date(Date.now() - 3 * 86_400_000) };
/** The lead's day as the operator's (the default OPERATOR_TIME_ZONE), which the dashboard's totals are kept by. */
const recentDay = localDate(recentLead.receivedAt, "America/New_York");

test("the retention purge runs at start: a lead past retention is gone, with its .eml file, and a conversions file past it too, without waiting an hour; the leads' days that are over are summed for the dashboard", async () => {
  const dataDir = join(root, "pglite");
  const outboxDir = join(root, "outbox");
  const database = await openDatabase({ pgliteDataDir: dataDir });
  const requestId = randomUUID();
  const emailId = randomUUID();
  let oldDownloadId = "";
  try {
    await database.db.insert(contactRequests).values({
      id: requestId,
      receivedAt: new Date(Date.now() - 400 * 86_400_000),
      firstName: "Old",
      lastName: "Lead",
      email: "old@example.com",
      phone: "555-123-4567",
      service: "Leak",
      message: "Long ago",
      consentText: "By submitting…",
      channel: "api",
    });
    await database.db.insert(emailOutbox).values({
      id: emailId,
      contactRequestId: requestId,
      purpose: "contact_notification",
      messageId: `<${emailId}@plumbline.example>`,
      toAddress: "leads@operator.example",
      subject: "Lead",
      textBody: "text",
      htmlBody: "<p>html</p>",
      sentAt: new Date(Date.now() - 399 * 86_400_000),
    });
    await database.db.insert(contactRequests).values(recentLead);
    const sources = { timeZone: "UTC", currency: "USD", answeredCalls: undefined };
    oldDownloadId = (await createDownload(database.db, "google", sources, new Date(Date.now() - 400 * 86_400_000))).id;
  } finally {
    await database.close();
  }
  await rm(outboxDir, { recursive: true, force: true });
  await mkdir(outboxDir);
  await writeFile(join(outboxDir, `${emailId}.eml`), "From: x\r\n\r\nold lead");

  const running = await startServer(testEnv({ PGLITE_DATA_DIR: dataDir, OUTBOX_DIR: outboxDir }));
  try {
    await waitUntil(
      async () => (await running.services.db.$count(contactRequests, eq(contactRequests.id, requestId))) === 0,
    );
    await waitUntil(() => !existsSync(join(outboxDir, `${emailId}.eml`)));
    await waitUntil(async () => (await findDownload(running.services.db, oldDownloadId)) === null);
    // The recent lead's day, and every other day of the last 90 that is over, is summed before any view asks.
    const oldestDay = addDays(localDate(new Date(), "America/New_York"), -89);
    const summed = and(
      inArray(leadDayVersions.day, [recentDay, oldestDay]),
      eq(leadDayVersions.summedVersion, leadDayVersions.version),
    );
    await waitUntil(async () => (await running.services.db.$count(leadDayVersions, summed)) === 2);
  } finally {
    await running.close();
  }
});

test(".eml files are readable by the server's user only, in a folder only it can open", async () => {
  const outboxDir = join(root, "private-outbox");
  const running = await startServer(testEnv({ OUTBOX_DIR: outboxDir }));
  try {
    expect((await postJson(running.url, validContact)).status).toBe(200);
    await waitUntil(async () => existsSync(outboxDir) && (await readdir(outboxDir)).length === 1);
    const [file] = await readdir(outboxDir);
    expect((await stat(join(outboxDir, file!))).mode & 0o777).toBe(0o600);
    expect((await stat(outboxDir)).mode & 0o777).toBe(0o700);
  } finally {
    await running.close();
  }
});
