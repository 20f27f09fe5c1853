import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { openDatabase, type OpenDatabase } from "~/server/db/index.server.ts";
import { updateLead } from "~/server/leads/index.server.ts";
import { createMailer } from "~/server/outbox/index.server.ts";
import { startOutboxWorker, type OutboxWorker } from "~/server/outbox/outbox.server.ts";
import {
  createWebhookConsole,
  purgeOldDeliveries,
  webhookQueue,
  type WebhookConsole,
} from "~/server/webhooks/index.server.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../app/server/webhooks/schema.server.ts";
import { Webhook } from "standardwebhooks";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { partners, referrals } from "../../app/server/partners/schema.server.ts";
import { leadReturns, ledgerEntries, partnerStatements } from "../../app/server/ledger/schema.server.ts";
import { approveReturn } from "~/server/ledger/index.server.ts";
import { receiveText } from "../../app/server/texts/inbound.server.ts";
import { calls } from "../../app/server/calls/schema.server.ts";
import { logIncomingCall, recordOutcome } from "~/server/calls/index.server.ts";
import { addPartner } from "~/server/partners/index.server.ts";
import { saveOperator } from "../../app/server/console/operators.server.ts";
import { postJson, testEnv, validContact, waitUntil } from "../../tooling/local-services.ts";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../webhook-receiver.ts";
import { onBothDatabases } from "./both-databases.ts";
import { testReferrals } from "../../tooling/test-referrals.ts";

/**
 * Webhooks as an operator's system receives them: every delivery verified with Standard Webhooks' reference
 * implementation by a real HTTP server, retried on the specification's schedule, sent once across instances, and
 * the endpoint turned off (and the operator emailed once) after 5 days of failures.
 */

const databases = onBothDatabases();

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Standard Webhooks' retry schedule: the waits after the first attempt, made at once. */
const SPECIFICATION_SCHEDULE = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

/** An object's field names, nested objects' as `parent.field`, sorted. */
function fieldsOf(value: object, prefix = ""): string[] {
  return Object.entries(value)
    .flatMap(([key, field]) =>
      field !== null && typeof field === "object" ? fieldsOf(field as object, `${prefix}${key}.`) : [`${prefix}${key}`],
    )
    .sort();
}

/** An operator signed in to the server, sending console forms as the browser does, with a page view's key. */
async function signedInConsole(running: RunningServer) {
  const email = `ops-${randomUUID()}@example.com`;
  const password = "a long enough password";
  await saveOperator(running.services.db, email, password);
  const signedIn = await fetch(`${running.url}/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: running.url },
    body: new URLSearchParams({ email, password }).toString(),
    redirect: "manual",
  });
  const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
  return {
    /** The token of a fresh view of the page, as its forms carry it. */
    async token(path: string) {
      const page = await (await fetch(`${running.url}${path}`, { headers: { Cookie: cookie } })).text();
      const token = /name="formKey" value="([^".]+)\./.exec(page)?.[1];
      expect(token, `no console form on ${path}`).toBeDefined();
      return token!;
    },
    send: (path: string, formKey: string, fields: Record<string, string>) =>
      fetch(`${running.url}${path}`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: running.url },
        body: new URLSearchParams({ ...fields, formKey }),
        redirect: "manual",
      }),
  };
}

function endpointForm(url: string, events: string[]) {
  const form = new FormData();
  form.set("url", url);
  for (const event of events) form.append("events", event);
  return form;
}

/** Adds an endpoint through the console's action and hands its secret to the receiver, as the operator would. */
async function addEndpoint(webhooks: WebhookConsole, receiver: WebhookReceiver, events: string[]) {
  const added = await webhooks.add(endpointForm(receiver.url, events));
  if (added.kind !== "added") throw new Error(`the endpoint was refused: ${JSON.stringify(added.errors)}`);
  expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  receiver.secret = added.secret;
  return added.id;
}

describe.each(databases.drivers)("webhooks from a running server on $name", ({ storage }) => {
  let running: RunningServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    // The receiver listens on loopback over http: allowed only with WEBHOOK_ALLOW_PRIVATE.
    running = await startServer(
      testEnv({ ...(await storage()), SMTP_URL: databases.smtp.url, WEBHOOK_ALLOW_PRIVATE: "true" }),
    );
  });

  afterAll(async () => {
    await running?.close();
    await receiver?.stop();
  });

  test("a lead, its update, a test event and a resend reach the endpoint signed, and are listed", async () => {
    const { webhooks } = running.services;
    const endpointId = await addEndpoint(webhooks, receiver, ["lead.created", "lead.updated"]);
    // An endpoint that wants only calls gets none of these.
    const callsOnly = await startWebhookReceiver();
    await addEndpoint(webhooks, callsOnly, ["call.completed"]);

    const response = await postJson(running.url, validContact);
    expect(response.status).toBe(200);
    const leadId = String(response.body.id);
    await waitUntil(() => receiver.received.length === 1);
    const [created] = receiver.received;
    expect(created!.payload).toEqual({
      type: "lead.created",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: expect.objectContaining({
        id: leadId,
        status: "New",
        first_name: "Ann",
        last_name: "Lee",
        email: "ann.lee@example.com",
        phone: "(555) 123-4567",
        service: "Leaking water heater",
        message: "Water on the floor.\nPlease call after 5pm.",
        channel: "api",
        global_privacy_control: false,
        received_at: expect.stringMatching(/Z$/),
        attribution: expect.objectContaining({ utm_source: null }),
      }),
    });
    expect(created!.id).toMatch(/^msg_[0-9a-f]{32}$/);

    expect(
      await updateLead(running.services.db, leadId, { status: "Contacted", note: "Called back" }, "op@x.example"),
    ).toBe(true);
    running.services.outbox.nudge("webhooks");
    await waitUntil(() => receiver.received.length === 2);
    expect(receiver.received[1]!.payload).toMatchObject({
      type: "lead.updated",
      data: {
        id: leadId,
        status: "Contacted",
        first_name: "Ann",
        change: { status_from: "New", status_to: "Contacted", note: "Called back", changed_by: "op@x.example" },
      },
    });

    expect(await webhooks.sendTest(endpointId)).toBe(true);
    await waitUntil(() => receiver.received.length === 3);
    expect(receiver.received[2]!.payload).toMatchObject({ type: "webhook.test", data: { endpoint_id: endpointId } });

    const [listed] = await webhooks.list();
    expect(listed!.deliveries.map((delivery) => [delivery.event, delivery.statusCode, delivery.attempts])).toEqual([
      ["webhook.test", 200, 1],
      ["lead.updated", 200, 1],
      ["lead.created", 200, 1],
    ]);
    const createdDelivery = listed!.deliveries[2]!;
    expect(createdDelivery.state).toBe("delivered");
    expect(createdDelivery.durationMs).toBeGreaterThanOrEqual(0);

    // "Resend": the same message again, with its webhook-id, so the receiver can tell it is a repeat.
    expect(await webhooks.resend(endpointId, createdDelivery.id)).toBe(true);
    await waitUntil(() => receiver.received.length === 4);
    expect(receiver.received[3]!.id).toBe(created!.id);
    expect(receiver.received[3]!.body).toBe(created!.body);

    expect(receiver.unverified).toBe(0);
    expect(callsOnly.received).toEqual([]);
    await callsOnly.stop();
  });

  test("a rolled secret: deliveries verify with the old secret before, with either for 24 hours, then with the new one only", async () => {
    const { webhooks, db } = running.services;
    const receiver = await startWebhookReceiver();
    onTestFinished(() => receiver.stop());
    const endpointId = await addEndpoint(webhooks, receiver, ["lead.created"]);
    const oldSecret = receiver.secret!;
    const sendOne = async () => {
      const before = receiver.received.length + receiver.unverified;
      await webhooks.sendTest(endpointId);
      await waitUntil(() => receiver.received.length + receiver.unverified > before);
    };
    /** Whether the latest delivery verifies with the secret, by Standard Webhooks' own `verify`. */
    const verifiesWith = (secret: string) => {
      const latest = receiver.received.at(-1)!;
      try {
        new Webhook(secret).verify(latest.body, latest.headers);
        return true;
      } catch {
        return false;
      }
    };

    await sendOne();
    expect(receiver.received).toHaveLength(1);

    // "Roll secret" on the Integrations page: asked first, then done once however often the form is sent again.
    const page = await signedInConsole(running);
    const token = await page.token("/admin/integrations");
    const roll = (confirmed: boolean) =>
      page.send("/admin/integrations", `${token}.roll.${endpointId}`, {
        intent: "roll",
        endpoint: endpointId,
        ...(confirmed ? { confirmed: "yes" } : {}),
      });
    const asked = await roll(false);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("Roll the signing secret of");
    expect(await webhooks.reveal(endpointId)).toMatchObject({ secret: oldSecret, previousSecret: null });
    const answered = await roll(true);
    expect(answered.status).toBe(200);
    const rolled = await webhooks.reveal(endpointId);
    expect(await answered.text()).toContain(rolled!.secret);
    expect(rolled!.secret).toMatch(/^whsec_/);
    expect(rolled!.secret).not.toBe(oldSecret);
    expect(Math.abs(rolled!.previousSecretUntil!.getTime() - Date.now() - 24 * HOUR)).toBeLessThan(MINUTE);
    // Sent again (a double click, a reload): rolled once, so the old secret the receiving end holds still signs.
    const again = await roll(true);
    expect([again.status, again.headers.get("location")]).toEqual([303, "/admin/integrations"]);
    expect(await webhooks.reveal(endpointId)).toMatchObject({ secret: rolled!.secret, previousSecret: oldSecret });

    // During the 24 hours: the receiving end still holding the old secret verifies, and so would one given the new.
    await sendOne();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(verifiesWith(oldSecret)).toBe(true);
    expect(verifiesWith(rolled!.secret)).toBe(true);

    // After them: signed with the new secret alone.
    await db
      .update(webhookEndpoints)
      .set({ previousSecretUntil: sql`now() - interval '1 second'` })
      .where(eq(webhookEndpoints.id, endpointId));
    await sendOne();
    expect(receiver.unverified).toBe(1);
    receiver.secret = rolled!.secret;
    await sendOne();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]!.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(verifiesWith(rolled!.secret)).toBe(true);
    expect(verifiesWith(oldSecret)).toBe(false);
    expect(await webhooks.reveal(endpointId)).toMatchObject({ previousSecret: null, previousSecretUntil: null });
  });

  test("every attempt is kept with the request's body, its status, time and the first 2 KB of the answer; one endpoint a URL", async () => {
    const { webhooks, db, outbox } = running.services;
    const receiver = await startWebhookReceiver();
    onTestFinished(() => receiver.stop());
    receiver.status = 500;
    receiver.answer = `Database down ${"é".repeat(3_000)}`;
    const endpointId = await addEndpoint(webhooks, receiver, ["lead.created"]);
    await webhooks.sendTest(endpointId);
    const [queued] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
    await waitUntil(async () => (await webhooks.delivery(queued!.id))!.attempts.length === 1);
    // The retry, made due now, is accepted.
    receiver.status = 202;
    receiver.answer = "queued";
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.id, queued!.id));
    outbox.nudge("webhooks");
    await waitUntil(async () => (await webhooks.delivery(queued!.id))!.state === "delivered");

    const detail = (await webhooks.delivery(queued!.id))!;
    expect(detail).toMatchObject({
      endpointId,
      url: receiver.url,
      event: "webhook.test",
      messageId: queued!.messageId,
    });
    expect(detail.body).toBe(receiver.received[0]!.body);
    expect(detail.attempts.map(({ statusCode, error }) => ({ statusCode, error }))).toEqual([
      { statusCode: 202, error: null },
      { statusCode: 500, error: "the endpoint answered 500" },
    ]);
    expect(detail.attempts[0]!.responseHead).toBe("queued");
    const head = detail.attempts[1]!.responseHead!;
    expect(head.startsWith("Database down éé")).toBe(true);
    expect(Buffer.byteLength(head)).toBeLessThanOrEqual(2_048);
    expect(Buffer.byteLength(head)).toBeGreaterThan(2_040);
    expect(detail.attempts[1]!.attemptedAt.getTime()).toBeLessThanOrEqual(detail.attempts[0]!.attemptedAt.getTime());

    // A second endpoint for the same URL is refused: every event would go to it twice.
    const again = await webhooks.add(endpointForm(receiver.url, ["lead.updated"]));
    expect(again).toEqual({ kind: "invalid", errors: { url: expect.stringMatching(/already listed/) } });
    expect(await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.url, receiver.url))).toHaveLength(1);

    // Removing the endpoint takes its deliveries and their attempts with it.
    expect(await webhooks.removal(endpointId)).toEqual({ url: receiver.url, waiting: 0, kept: 1 });
    expect(await webhooks.remove(endpointId)).toBe(true);
    expect(await webhooks.remove(endpointId)).toBe(false);
    expect(await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, queued!.id))).toEqual([]);
  });

  test("every business event reaches the endpoint signed, for its action: referrals, returns, ledger, statements, texts", async () => {
    const { webhooks, db, run, referrals: referralService } = running.services;
    const everything = await startWebhookReceiver();
    try {
      await addEndpoint(webhooks, everything, [
        "referral.offered",
        "referral.accepted",
        "referral.declined",
        "return.requested",
        "return.decided",
        "ledger.entry.created",
        "statement.issued",
        "text.received",
      ]);
      const response = await postJson(running.url, { ...validContact, email: "dana@example.com" });
      const leadId = String(response.body.id);
      const partnerOf = (name: string, email: string) =>
        addPartner(db, {
          name,
          serviceFees: {},
          business: `${name} Plumbing`,
          phone: "555-010-0000",
          email,
          services: [],
          zipCodes: [],
          feeMinor: 4_500,
        });
      const [ana, ben] = [
        await partnerOf("Ana Ruiz", "ana@ruiz.example"),
        await partnerOf("Ben Okafor", "ben@ok.example"),
      ];
      const partner = (id: string, name: string, email: string) => ({
        id,
        name,
        business: `${name} Plumbing`,
        phone: "555-010-0000",
        email,
      });
      // The events not looked at yet, once `count` of them have arrived.
      let seen = 0;
      const next = async (count: number) => {
        await waitUntil(() => everything.received.length >= seen + count);
        seen += count;
        return everything.received.slice(seen - count, seen).map((received) => received.payload);
      };

      expect(
        await referralService.offer({
          leadId,
          partnerIds: [ana, ben],
          operatorEmail: "op@x.example",
          optOutConfirmed: false,
        }),
      ).toEqual({ kind: "sent", partners: 2 });
      const offered = await next(2);
      expect(offered.map((event) => event.type)).toEqual(["referral.offered", "referral.offered"]);
      expect(offered.find((event) => (event.data.partner as { id: string }).id === ana)!.data).toEqual({
        referral_id: expect.any(String),
        lead_id: leadId,
        offered_at: expect.stringMatching(/Z$/),
        expires_at: expect.stringMatching(/Z$/),
        offered_by: "op@x.example",
        partner: partner(ana, "Ana Ruiz", "ana@ruiz.example"),
      });

      const tokenOf = async (address: string) => {
        const [offer] = await db
          .select()
          .from(emailOutbox)
          .where(and(eq(emailOutbox.toAddress, address), eq(emailOutbox.purpose, "referral_offer")));
        return /\/r\/([^\s"<]+)/.exec(offer!.textBody)![1]!;
      };
      await referralService.answer(await tokenOf("ben@ok.example"), "198.51.100.2", "declined");
      const [declined] = await next(1);
      expect(declined).toMatchObject({
        type: "referral.declined",
        data: { lead_id: leadId, declined_at: expect.stringMatching(/Z$/), partner: { id: ben, name: "Ben Okafor" } },
      });

      const anaToken = await tokenOf("ana@ruiz.example");
      expect((await referralService.answer(anaToken, "198.51.100.1", "accepted")).kind).toBe("accepted");
      const accepted = await next(2);
      const [charge] = await db.select().from(ledgerEntries).where(eq(ledgerEntries.partnerId, ana));
      const acceptedEvents = Object.fromEntries(accepted.map((event) => [event.type, event.data]));
      expect(acceptedEvents["referral.accepted"]).toMatchObject({ referral_id: charge!.referralId, lead_id: leadId });
      expect(acceptedEvents["ledger.entry.created"]).toMatchObject({
        id: charge!.id,
        kind: "charge",
        amount_minor: 4_500,
      });

      const form = new FormData();
      form.set("reason", "Wrong number");
      await referralService.returnLead(anaToken, "198.51.100.1", form);
      const [requested] = await next(1);
      const [returned] = await db.select().from(leadReturns);
      expect(requested).toEqual({
        type: "return.requested",
        timestamp: expect.any(String),
        data: {
          id: returned!.id,
          referral_id: charge!.referralId,
          call_id: null,
          lead_id: leadId,
          partner_id: ana,
          reason: "Wrong number",
          detail: null,
          requested_at: expect.stringMatching(/Z$/),
          decision: null,
          decided_at: null,
          decided_by: null,
          denial_reason: null,
        },
      });

      expect(await approveReturn(run, returned!.id, "op@x.example", "2026-12-06")).toBe(true);
      const decided = await next(2);
      expect(decided.find((event) => event.type === "return.decided")!.data).toMatchObject({
        id: returned!.id,
        lead_id: leadId,
        decision: "approved",
        decided_at: expect.stringMatching(/Z$/),
        decided_by: "op@x.example",
      });
      expect(decided.find((event) => event.type === "ledger.entry.created")!.data).toMatchObject({
        kind: "credit",
        amount_minor: -4_500,
      });

      // This month's statement, issued as it would be on the 1st of the next.
      const now = new Date();
      expect(
        await referralService.issueMonthlyStatements(
          new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 18)),
        ),
      ).toBe(1);
      const [statement] = await db.select().from(partnerStatements);
      expect((await next(1))[0]).toMatchObject({
        type: "statement.issued",
        data: {
          id: statement!.id,
          number: statement!.number,
          partner_id: ana,
          period: statement!.period,
          issued_at: expect.stringMatching(/Z$/),
          opening_minor: 0,
          closing_minor: 0,
          amount_due_minor: 0,
        },
      });

      await receiveText(
        run,
        {
          messageSid: `SM${"0".repeat(31)}7`,
          customer: "+15550142288",
          ours: "+15550100999",
          body: "Is Tuesday morning OK?",
          answeredByTwilio: false,
        },
        "help",
      );
      running.services.outbox.nudge("webhooks");
      expect((await next(1))[0]).toMatchObject({
        type: "text.received",
        data: {
          id: expect.any(String),
          received_at: expect.stringMatching(/Z$/),
          from: "+15550142288",
          to: "+15550100999",
          body: "Is Tuesday morning OK?",
          keyword: null,
        },
      });
      expect(everything.unverified).toBe(0);

      // The guide's example of each event has the fields the event has, no more, no fewer.
      const guide = await readFile("docs/guides/webhooks-and-api.md", "utf8");
      const examples = guide
        .split("\n")
        .filter((line) => line.startsWith('{"type": '))
        .map((line) => JSON.parse(line) as ReceivedWebhook["payload"]);
      const types = new Set(everything.received.map((received) => received.payload.type));
      expect(examples.map((example) => example.type).sort()).toEqual([...types].sort());
      for (const example of examples) {
        const sent = everything.received.find((received) => received.payload.type === example.type)!.payload;
        expect(fieldsOf(example), example.type).toEqual(fieldsOf(sent));
      }
    } finally {
      await everything.stop();
    }
  });
});

describe("webhook deliveries through the outbox's lease", () => {
  let database: OpenDatabase;
  let receiver: WebhookReceiver;
  const workers: OutboxWorker[] = [];

  beforeAll(async () => {
    database = await openDatabase({ pgliteDataDir: "memory://" });
  });

  afterAll(() => database.close());

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await receiver?.stop();
    await database.db.delete(webhookEndpoints);
    await database.db.delete(emailOutbox);
  });

  function startWorker(on: OpenDatabase, smtpUrl?: string, allowPrivate = true) {
    const worker = startOutboxWorker(
      on.run,
      createMailer({ smtpUrl, from: "Plumbline <no-reply@plumbline.example>", outboxDir: "" }),
      {
        pollMs: 50,
        retryBaseMs: 20,
        retryMaxMs: 50,
        queues: [
          webhookQueue({
            run: on.run,
            rule: { allowPrivate },
            leadsEmailTo: "leads@operator.example",
            siteUrl: "https://plumbline.example",
            companyName: "Plumbline",
            messageIdDomain: "plumbline.example",
          }),
        ],
      },
    );
    workers.push(worker);
    return worker;
  }

  const consoleOn = (on: OpenDatabase, worker?: OutboxWorker) =>
    createWebhookConsole({ db: on.db, rule: { allowPrivate: true }, onQueued: () => worker?.nudge("webhooks") });

  test("deliveries, which hold leads' contact details, go 30 days after they were queued once settled, however many; those still to send stay", async () => {
    const [endpoint] = await database.db
      .insert(webhookEndpoints)
      .values({ id: randomUUID(), url: "https://crm.example/hooks", events: ["lead.created"], secret: "whsec_test" })
      .returning({ id: webhookEndpoints.id });
    const deliveries = (label: string, count: number, daysAgo: number, settled: "sent" | "failed" | null) =>
      database.db.execute(sql`
        INSERT INTO webhook_deliveries (id, endpoint_id, created_at, purpose, message_id, payload, sent_at, failed_at)
        SELECT gen_random_uuid(), ${endpoint!.id}, now() - ${daysAgo} * interval '1 day', ${label}, 'msg_' || n, '{}',
          ${settled === "sent" ? sql`now()` : sql`NULL`}, ${settled === "failed" ? sql`now()` : sql`NULL`}
        FROM generate_series(1, ${count}::int) n`);
    // More than two statements' worth.
    await deliveries("old, sent", 1_100, 31, "sent");
    await deliveries("old, given up", 3, 31, "failed");
    await deliveries("old, still to send", 2, 31, null);
    await deliveries("recent", 4, 29, "sent");

    expect(await purgeOldDeliveries(database.run)).toBe(1_103);
    const left = await database.db
      .select({ purpose: webhookDeliveries.purpose, count: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .groupBy(webhookDeliveries.purpose)
      .orderBy(webhookDeliveries.purpose);
    expect(left).toEqual([
      { purpose: "old, still to send", count: 2 },
      { purpose: "recent", count: 4 },
    ]);
  });

  test("a failing endpoint is retried on Standard Webhooks' schedule, then the delivery is given up", async () => {
    receiver = await startWebhookReceiver();
    receiver.status = 500;
    const worker = startWorker(database);
    const webhooks = consoleOn(database, worker);
    const endpointId = await addEndpoint(webhooks, receiver, ["lead.created"]);
    await webhooks.sendTest(endpointId);

    const delivery = async () => (await database.db.select().from(webhookDeliveries))[0]!;
    // Each wait the outbox schedules is the specification's; the clock is then moved on by making the retry due.
    for (const [index, waitMs] of SPECIFICATION_SCHEDULE.entries()) {
      await waitUntil(async () => receiver.received.length === index + 1 && (await delivery()).lastError !== null);
      const row = await delivery();
      expect(row.attempts).toBe(index + 1);
      expect(row.failedAt).toBeNull();
      expect(row.statusCode).toBe(500);
      expect(Math.abs(row.nextAttemptAt.getTime() - row.lastAttemptAt!.getTime() - waitMs)).toBeLessThan(1_000);
      await database.db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: sql`now()`, lastError: null })
        .where(eq(webhookDeliveries.id, row.id));
      worker.nudge("webhooks");
    }
    // The eighth attempt (immediately, then after each of the seven waits) is the last.
    await waitUntil(async () => (await delivery()).failedAt !== null);
    expect((await delivery()).attempts).toBe(8);
    expect(receiver.received).toHaveLength(8);
    expect(new Set(receiver.received.map((received) => received.id)).size).toBe(1);
    expect(receiver.unverified).toBe(0);
  });

  test("a receiver trickling its answer for 90 s holds up no other endpoint: its attempt is ended at 15 s and retried on the schedule", async () => {
    // Answers 200 at once, then a byte every 5 s for 90 s: no idle timeout would ever end it.
    const slow = await startWebhookReceiver({ trickle: { everyMs: 5 * SECOND, forMs: 90 * SECOND } });
    receiver = await startWebhookReceiver();
    try {
      const worker = startWorker(database);
      const webhooks = consoleOn(database, worker);
      const slowId = await addEndpoint(webhooks, slow, ["lead.created"]);
      const fastId = await addEndpoint(webhooks, receiver, ["lead.created"]);
      await webhooks.sendTest(slowId);
      await waitUntil(() => slow.received.length === 1);
      const slowBegan = Date.now();

      // While the slow one trickles, each delivery to the other endpoint arrives as soon as it is queued.
      for (const [index, atMs] of [1 * SECOND, 8 * SECOND].entries()) {
        await new Promise((resolve) => setTimeout(resolve, slowBegan + atMs - Date.now()));
        const queuedAt = Date.now();
        await webhooks.sendTest(fastId);
        await waitUntil(() => receiver.received.length === index + 1);
        expect(receiver.received[index]!.receivedAt - queuedAt).toBeLessThan(2 * SECOND);
      }

      const slowDelivery = async () =>
        (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, slowId)))[0]!;
      await waitUntil(async () => (await slowDelivery()).lastError !== null, 20 * SECOND);
      const row = await slowDelivery();
      // Cut off at the 15 s deadline for the whole answer, though its status was 200: a failed attempt.
      expect(slow.cutOff).toBe(1);
      expect(row.statusCode).toBeNull();
      expect(row.durationMs).toBeGreaterThanOrEqual(15 * SECOND);
      expect(row.durationMs).toBeLessThan(17 * SECOND);
      expect(row.lastError).toMatch(/no whole answer within 15000 ms/);
      expect(row).toMatchObject({ attempts: 1, sentAt: null, failedAt: null });
      expect(
        Math.abs(row.nextAttemptAt.getTime() - row.lastAttemptAt!.getTime() - SPECIFICATION_SCHEDULE[0]!),
      ).toBeLessThan(SECOND);
      expect(receiver.unverified + slow.unverified).toBe(0);
    } finally {
      await slow.stop();
    }
  }, 40_000);

  test("an endpoint failing for 5 days is turned off and the operator emailed once; its queued deliveries are not sent", async () => {
    receiver = await startWebhookReceiver();
    receiver.status = 503;
    const smtp = databases.smtp;
    smtp.received.length = 0;
    const worker = startWorker(database, smtp.url);
    const webhooks = consoleOn(database);
    const endpointId = await addEndpoint(webhooks, receiver, ["lead.created"]);
    await database.db
      .update(webhookEndpoints)
      .set({ failingSince: sql`now() - interval '5 days 1 minute'` })
      .where(eq(webhookEndpoints.id, endpointId));
    // Two deliveries fail at once: the endpoint is turned off by the first to record its failure, and emailed once.
    await webhooks.sendTest(endpointId);
    await webhooks.sendTest(endpointId);
    worker.nudge();

    await waitUntil(async () => {
      const [endpoint] = await database.db.select().from(webhookEndpoints);
      return endpoint!.disabledAt !== null;
    });
    await waitUntil(() => smtp.received.length > 0);
    const mail = smtp.received[0]!;
    expect(mail.envelopeTo).toEqual(["leads@operator.example"]);
    expect(mail.subject).toBe("A webhook endpoint was turned off");
    expect(mail.text).toContain(receiver.url);
    const sentBefore = receiver.received.length;

    // A delivery queued for it now is given up without a request.
    await webhooks.sendTest(endpointId);
    worker.nudge();
    const newest = async () =>
      (await database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.createdAt)).at(-1)!;
    await waitUntil(async () => (await newest()).failedAt !== null);
    expect(await newest()).toMatchObject({ attempts: 1, statusCode: null });
    await worker.stop();
    expect(receiver.received.length).toBe(sentBefore);
    expect(await database.db.select().from(emailOutbox)).toHaveLength(1);
    expect(smtp.received).toHaveLength(1);

    // "Turn on again": sent to once more.
    await webhooks.turnOn(endpointId);
    const [endpoint] = await database.db.select().from(webhookEndpoints);
    expect(endpoint).toMatchObject({ disabledAt: null, failingSince: null });
  });

  test("an answered call and an accepted referral reach the endpoint as call.completed and referral.accepted", async () => {
    receiver = await startWebhookReceiver();
    const worker = startWorker(database);
    await addEndpoint(consoleOn(database), receiver, ["call.completed", "referral.accepted"]);
    const { run, db } = database;

    const callSid = `CA${"0".repeat(31)}1`;
    await logIncomingCall(
      run,
      { callSid, caller: "+15550100001", called: "+15550100999" },
      {
        site: "+15550100999",
        pool: [],
      },
    );
    const settings = {
      leadsEmailTo: "leads@operator.example",
      siteUrl: "https://plumbline.example",
      timeZone: "America/New_York",
      currency: "USD",
      messageIdDomain: "plumbline.example",
    };
    expect(await recordOutcome(run, callSid, { status: "answered", durationSeconds: 42 }, settings)).toEqual({
      kind: "recorded",
      webhooks: true,
      call: { caller: "+15550100001", called: "+15550100999", callerVerification: null },
    });

    const leadId = randomUUID();
    await db.insert(contactRequests).values({
      id: leadId,
      firstName: "Dana",
      lastName: "Whitfield",
      email: "dana@example.com",
      phone: "555-014-2288",
      service: "Drain Services",
      message: "Slow drain",
      zip: "10001",
      consentText: "By submitting…",
      channel: "form",
    });
    const partnerOf = (name: string, email: string) =>
      addPartner(db, {
        name,
        serviceFees: {},
        business: `${name} Plumbing`,
        phone: "555-010-0000",
        email,
        services: ["Drain Services"],
        zipCodes: ["10001"],
        feeMinor: null,
      });
    const [ana, ben] = [
      await partnerOf("Ana Ruiz", "ana@ruiz.example"),
      await partnerOf("Ben Okafor", "ben@ok.example"),
    ];
    const service = testReferrals({ db, run }, { replyTo: "leads@operator.example", onQueued: () => worker.nudge() });
    await service.offer({ leadId, partnerIds: [ana, ben], operatorEmail: "op@x.example", optOutConfirmed: false });
    const tokenOf = async (address: string) => {
      const [offer] = await db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.toAddress, address), eq(emailOutbox.purpose, "referral_offer")));
      return /\/r\/([^\s"<]+)/.exec(offer!.textBody)![1]!;
    };
    // A declined offer tells this endpoint nothing (it does not want referral.declined); the acceptance does.
    expect(await service.answer(await tokenOf("ben@ok.example"), "198.51.100.2", "declined")).toEqual({
      kind: "declined",
    });
    expect((await service.answer(await tokenOf("ana@ruiz.example"), "198.51.100.1", "accepted")).kind).toBe("accepted");
    worker.nudge();

    await waitUntil(() => receiver.received.length === 2);
    const byType = Object.fromEntries(receiver.received.map((received) => [received.payload.type, received.payload]));
    const [call] = await db.select().from(calls);
    expect(byType["call.completed"]!.data).toMatchObject({
      id: call!.id,
      caller: "+15550100001",
      called: "+15550100999",
      line: "website",
      status: "answered",
      duration_seconds: 42,
      attribution: { utm_source: null, gclid: null },
    });
    const [accepted] = await db.select().from(referrals).where(eq(referrals.answer, "accepted"));
    expect(byType["referral.accepted"]!.data).toMatchObject({
      referral_id: accepted!.id,
      lead_id: leadId,
      partner: { id: ana, name: "Ana Ruiz", business: "Ana Ruiz Plumbing", email: "ana@ruiz.example" },
    });
    expect(receiver.unverified).toBe(0);
    await db.delete(referrals);
    await db.delete(partners);
    await db.delete(calls);
    await db.delete(contactRequests);
  });

  test("without WEBHOOK_ALLOW_PRIVATE, http URLs and loopback or private addresses are refused, when added and when connecting", async () => {
    receiver = await startWebhookReceiver();
    const webhooks = createWebhookConsole({
      db: database.db,
      rule: { allowPrivate: false },
      onQueued: () => undefined,
    });
    const port = new URL(receiver.url).port;
    for (const url of [
      receiver.url,
      `https://127.0.0.1:${port}/hooks`,
      `https://localhost:${port}/hooks`,
      "https://10.0.0.5/hooks",
      "https://172.16.0.1/hooks",
      "https://192.168.1.10/hooks",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hooks",
      "https://[fd00::1]/hooks",
    ]) {
      const added = await webhooks.add(endpointForm(url, ["lead.created"]));
      expect(added, url).toMatchObject({ kind: "invalid", errors: { url: expect.any(String) } });
    }
    // The form itself: at least one event from the list, and a URL.
    expect(await webhooks.add(endpointForm("https://hooks.example.com/x", []))).toEqual({
      kind: "invalid",
      errors: { events: "Choose at least one event." },
    });
    expect(await webhooks.add(endpointForm("https://hooks.example.com/x", ["lead.deleted"]))).toMatchObject({
      kind: "invalid",
      errors: { events: "Choose events from the list." },
    });
    expect(await database.db.select().from(webhookEndpoints)).toEqual([]);

    // A name that pointed at a public address when it was added and at this machine now (DNS rebinding) is refused
    // as the delivery connects: nothing reaches the receiver.
    const endpointId = randomUUID();
    await database.db.insert(webhookEndpoints).values({
      id: endpointId,
      url: `https://localhost:${port}/hooks`,
      events: ["lead.created"],
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    });
    const worker = startWorker(database, undefined, false);
    await webhooks.sendTest(endpointId);
    worker.nudge();
    await waitUntil(async () => (await database.db.select().from(webhookDeliveries))[0]?.lastError != null);
    const [delivery] = await database.db.select().from(webhookDeliveries);
    expect(delivery!.lastError).toMatch(/not public/);
    expect(delivery!.sentAt).toBeNull();
    expect(receiver.received).toEqual([]);
    expect(receiver.unverified).toBe(0);
  });

  test("two instances on one PostgreSQL never send a delivery twice", async () => {
    receiver = await startWebhookReceiver({ delayMs: 20 });
    const url = await databases.postgres.createDatabase();
    const first = await openDatabase({ databaseUrl: url, pgliteDataDir: "" });
    const second = await openDatabase({ databaseUrl: url, pgliteDataDir: "" });
    try {
      const webhooks = consoleOn(first);
      const endpointId = await addEndpoint(webhooks, receiver, ["lead.created"]);
      const DELIVERIES = 60;
      for (let index = 0; index < DELIVERIES; index += 1) await webhooks.sendTest(endpointId);
      const workerA = startWorker(first);
      const workerB = startWorker(second);
      workerA.nudge();
      workerB.nudge();
      await waitUntil(async () => {
        const rows = await first.db.select().from(webhookDeliveries);
        return rows.every((row) => row.sentAt !== null);
      }, 30_000);
      await Promise.all([workerA.stop(), workerB.stop()]);
      const ids = receiver.received.map((received) => received.id);
      expect(ids).toHaveLength(DELIVERIES);
      expect(new Set(ids).size).toBe(DELIVERIES);
      expect(receiver.unverified).toBe(0);
    } finally {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
      await Promise.all([first.close(), second.close()]);
    }
  });
});
