import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "~/server/db/db.server.ts";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox, outboxMessages } from "../../app/server/outbox/schema.server.ts";
import { createMailer, type Mailer } from "~/server/outbox/mail.server.ts";
import {
  DeliveryRefused,
  startOutboxWorker,
  type OutboxOptions,
  type OutboxWorker,
} from "~/server/outbox/outbox.server.ts";
import { queue as queueInOutbox } from "~/server/outbox/queue.server.ts";
import { startSmtpPeer, waitUntil, type SmtpPeer, type SmtpPeerBehaviour } from "../../tooling/local-services.ts";

/** The outbox worker against a real SMTP peer that is slow, refuses, or hangs. */

let database: OpenDatabase;
let peer: SmtpPeer | undefined;
const mailers: Mailer[] = [];
const workers: OutboxWorker[] = [];

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
});

afterAll(() => database.close());

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  for (const mailer of mailers.splice(0)) mailer.close();
  await peer?.stop();
  peer = undefined;
  // Each test starts with an empty outbox.
  await database.db.delete(emailOutbox);
});

async function startPeer(behaviour: SmtpPeerBehaviour = {}) {
  peer = await startSmtpPeer(behaviour);
  return peer;
}

function startWorker(options: Partial<OutboxOptions> = {}) {
  const mailer = createMailer({ smtpUrl: peer!.url, from: "Plumbline <no-reply@plumbline.example>", outboxDir: "" });
  mailers.push(mailer);
  const worker = startOutboxWorker(database.run, mailer, { pollMs: 50, retryBaseMs: 20, retryMaxMs: 50, ...options });
  workers.push(worker);
  return worker;
}

/** Queues one email for a new contact request; returns the outbox row's id. */
async function queue(to: string, createdAt = new Date()) {
  const requestId = randomUUID();
  await database.db.insert(contactRequests).values({
    id: requestId,
    firstName: "Ann",
    lastName: "Lee",
    email: "ann@example.com",
    phone: "555-123-4567",
    service: "Leak",
    message: "Help",
    consentText: "By submitting…",
    channel: "api",
  });
  const id = randomUUID();
  await database.db.insert(emailOutbox).values({
    id,
    createdAt,
    contactRequestId: requestId,
    purpose: "contact_notification",
    messageId: `<${id}@plumbline.example>`,
    toAddress: to,
    subject: "New estimate request",
    textBody: "text",
    htmlBody: "<p>html</p>",
  });
  return id;
}

async function row(id: string) {
  const [found] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  return found!;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the outbox", () => {
  test("a server slow to answer a message gets it once: the lease outlives the send, even with two workers", async () => {
    await startPeer({ replyDelayMs: 4_000 });
    const id = await queue("leads@operator.example");
    startWorker({ leaseMs: 1_500 });
    startWorker({ leaseMs: 1_500 });
    await waitUntil(async () => (await row(id)).sentAt !== null);
    await pause(800);
    expect(peer!.received).toHaveLength(1);
    expect(peer!.recipientsOffered).toHaveLength(1);
    expect((await row(id)).attempts).toBe(1);
  });

  test("a permanent refusal (5xx) is tried 3 times, then marked failed and left alone; a 4xx keeps being retried", async () => {
    await startPeer({
      recipientReply: (address) => (address.startsWith("nobody") ? 550 : address.startsWith("busy") ? 451 : undefined),
    });
    const refused = await queue("nobody@example.com");
    const busy = await queue("busy@example.com");
    startWorker();
    await waitUntil(async () => (await row(refused)).failedAt !== null);
    await waitUntil(async () => (await row(busy)).attempts >= 5);
    await pause(300);
    expect(await row(refused)).toMatchObject({ attempts: 3, sentAt: null, lastError: expect.stringContaining("550") });
    expect(peer!.recipientsOffered.filter((address) => address.startsWith("nobody"))).toHaveLength(3);
    expect(await row(busy)).toMatchObject({ failedAt: null, sentAt: null });
  });

  test("a message that cannot be delivered for 5 days is marked failed", async () => {
    await startPeer();
    await peer!.goDown();
    const old = await queue("leads@operator.example", new Date(Date.now() - 6 * 86_400_000));
    const recent = await queue("leads@operator.example");
    startWorker();
    await waitUntil(async () => (await row(old)).failedAt !== null);
    expect((await row(old)).attempts).toBe(1);
    expect((await row(recent)).failedAt).toBeNull();
  });

  test("stopping aborts a send that hangs, and its row goes back as it was; the next worker sends it once", async () => {
    await startPeer({ holdRecipients: true });
    const id = await queue("leads@operator.example");
    const worker = startWorker({ stopGraceMs: 200 });
    await waitUntil(() => peer!.recipientsOffered.length === 1);
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await row(id)).toMatchObject({ attempts: 0, sentAt: null, failedAt: null });

    await peer!.stop();
    await startPeer();
    startWorker();
    await waitUntil(async () => (await row(id)).sentAt !== null);
    await pause(300);
    expect(peer!.received).toHaveLength(1);
  });
});

describe("a batch of emails", () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "outbox-batch-"));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  /**
   * The mailer of a server without SMTP_URL (.eml files), counting the sends in flight; `hold` keeps each send
   * from finishing until it is aborted, as a mail server that never answers would.
   */
  function countingMailer({ hold = false, sendMs = 30 } = {}) {
    const files = createMailer({ from: "Plumbline <no-reply@plumbline.example>", outboxDir: folder });
    mailers.push(files);
    const counts = { begun: 0, most: 0, inFlight: 0 };
    const mailer: Mailer = {
      ...files,
      async send(email, signal) {
        counts.begun += 1;
        counts.inFlight += 1;
        counts.most = Math.max(counts.most, counts.inFlight);
        try {
          await new Promise<void>((resolve, reject) => {
            signal.addEventListener("abort", () => reject(signal.reason as Error));
            if (!hold) setTimeout(resolve, sendMs);
          });
          await files.send(email, signal);
        } finally {
          counts.inFlight -= 1;
        }
      },
    };
    return { mailer, counts };
  }

  function startWorkerWith(mailer: Mailer, options: Partial<OutboxOptions> = {}) {
    const worker = startOutboxWorker(database.run, mailer, { pollMs: 50, retryBaseMs: 20, retryMaxMs: 50, ...options });
    workers.push(worker);
    return worker;
  }

  test("is sent as many at a time as the mailer sends at once, and every email once", async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, n) => queue(`leads+${n}@operator.example`)));
    const { mailer, counts } = countingMailer();
    startWorkerWith(mailer);
    await waitUntil(async () => (await Promise.all(ids.map(row))).every((found) => found.sentAt !== null));
    expect(counts.most).toBe(mailer.sendsAtOnce);
    expect(counts.begun).toBe(12);
    expect((await readdir(folder)).sort()).toEqual(ids.map((id) => `${id}.eml`).sort());
  });

  test("an email waiting its turn longer than its lease is sent once, though another worker claims it meanwhile", async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, n) => queue(`leads+${n}@operator.example`)));
    // Each send takes 600 ms and the lease is 1 s: the last four of the first worker's batch wait 1.2 s for their turn.
    const first = countingMailer({ sendMs: 600 });
    const second = countingMailer({ sendMs: 600 });
    startWorkerWith(first.mailer, { leaseMs: 1_000 });
    await waitUntil(() => first.counts.begun > 0);
    startWorkerWith(second.mailer, { leaseMs: 1_000 });
    await waitUntil(async () => (await Promise.all(ids.map(row))).every((found) => found.sentAt !== null));
    await pause(700);
    expect(first.counts.begun + second.counts.begun).toBe(12);
  });

  test("stopped midway returns the emails it had not begun, unsent; the next worker sends each once", async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, n) => queue(`leads+${n}@operator.example`)));
    const held = countingMailer({ hold: true });
    const worker = startWorkerWith(held.mailer, { stopGraceMs: 100 });
    await waitUntil(() => held.counts.begun === held.mailer.sendsAtOnce);
    await worker.stop();
    // The sends under way were aborted and the rest never begun: every row is back as it was.
    expect(held.counts.begun).toBe(held.mailer.sendsAtOnce);
    for (const id of ids) expect(await row(id)).toMatchObject({ attempts: 0, sentAt: null, failedAt: null });

    const next = countingMailer();
    startWorkerWith(next.mailer);
    await waitUntil(async () => (await Promise.all(ids.map(row))).every((found) => found.sentAt !== null));
    expect(next.counts.begun).toBe(6);
    expect((await readdir(folder)).sort()).toEqual(ids.map((id) => `${id}.eml`).sort());
  });
});

describe("messages for other channels", () => {
  afterEach(() => database.db.delete(outboxMessages));

  async function queuedMessage(id: string) {
    const [found] = await database.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
    return found!;
  }

  test("a queued message reaches its channel's sender once, with its payload, and is marked sent", async () => {
    await startPeer();
    const delivered: unknown[] = [];
    const worker = startWorker({ channels: { sms: async (payload) => void delivered.push(payload) } });
    await queueInOutbox(database.run, "Plumbline <no-reply@plumbline.example>", {
      messages: [
        { channel: "sms", purpose: "missed_call_alert", payload: { to: "+15550001111", body: "Missed call" } },
      ],
    });
    worker.nudge();
    await waitUntil(async () => (await database.db.select().from(outboxMessages))[0]?.sentAt != null);
    await pause(200);
    expect(delivered).toEqual([{ to: "+15550001111", body: "Missed call" }]);
  });

  test("a service that is down is retried; one that refuses for good is given up after three refusals", async () => {
    await startPeer();
    let calls = 0;
    startWorker({
      channels: {
        push: async () => {
          calls += 1;
          if (calls === 1) throw new Error("connect ECONNREFUSED");
        },
        sms: async () => {
          throw new DeliveryRefused("the number cannot receive text messages");
        },
      },
    });
    await queueInOutbox(database.run, "no-reply@plumbline.example", {
      messages: [
        { channel: "push", purpose: "new_lead_alert", payload: {} },
        { channel: "sms", purpose: "new_lead_alert", payload: {} },
      ],
    });
    await waitUntil(async () => {
      const rows = await database.db.select().from(outboxMessages);
      return rows.length === 2 && rows.every((row) => row.sentAt !== null || row.failedAt !== null);
    });
    const rows = await database.db.select().from(outboxMessages);
    const push = await queuedMessage(rows.find((row) => row.channel === "push")!.id);
    const sms = await queuedMessage(rows.find((row) => row.channel === "sms")!.id);
    expect(calls).toBe(2);
    expect(push.sentAt).not.toBeNull();
    expect(sms.failedAt).not.toBeNull();
    expect(sms.attempts).toBe(3);
  });
});
