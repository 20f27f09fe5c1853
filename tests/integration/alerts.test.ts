import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { executeRows, openDatabase, type OpenDatabase } from "~/server/db/index.server.ts";
import { escalateUnansweredLeads } from "~/server/alerts/escalation.server.ts";
import { twilioTextSender } from "~/server/alerts/index.server.ts";
import { createTwilioClient } from "~/server/twilio/index.server.ts";
import { markLeadOpened } from "~/server/leads/lead-opened.server.ts";
import { claimUnansweredLeadCte } from "~/server/leads/index.server.ts";
import { createMailer } from "~/server/outbox/mail.server.ts";
import { queue, startOutboxWorker, type OutboxWorker } from "~/server/outbox/index.server.ts";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox, outboxMessages } from "../../app/server/outbox/schema.server.ts";
import { waitUntil } from "../../tooling/local-services.ts";
import { contactRequestRow } from "../../tooling/stored-rows.ts";
import { databasesToOpen } from "../../tooling/test-databases.ts";

/** Escalating leads nobody opened, and text messages through a stand-in for Twilio's Messages API. */

let database: OpenDatabase;

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
});

afterAll(() => database.close());

beforeEach(async () => {
  await database.db.delete(emailOutbox);
  await database.db.delete(outboxMessages);
  await database.db.delete(contactRequests);
});

async function storeLead(minutesAgo: number, service = "Water heater leaking") {
  const id = randomUUID();
  await database.db.insert(contactRequests).values({
    id,
    receivedAt: new Date(Date.now() - minutesAgo * 60_000),
    firstName: "Dana",
    lastName: "Whitfield",
    email: "dana.whitfield@example.com",
    phone: "(555) 014-2288",
    service,
    message: "Please hurry",
    consentText: "By submitting…",
    channel: "form",
  });
  return id;
}

const settings = {
  companyName: "Plumbline",
  leadsEmailTo: "leads@plumbline.example",
  siteUrl: "https://plumbline.example",
  alertSmsTo: "+15555550123",
  escalateMinutes: 5,
  messageIdDomain: "plumbline.example",
};

describe("escalation", () => {
  test("a lead still New and unopened after the set minutes is escalated once, by email and text, even with two instances", async () => {
    const waiting = await storeLead(6);
    await storeLead(2);
    const opened = await storeLead(6);
    await markLeadOpened(database.db, opened);

    const counts = await Promise.all([
      escalateUnansweredLeads(database.run, settings),
      escalateUnansweredLeads(database.run, settings),
    ]);
    expect(counts[0]! + counts[1]!).toBe(1);
    expect(await escalateUnansweredLeads(database.run, settings)).toBe(0);

    const emails = await database.db.select().from(emailOutbox);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ toAddress: "leads@plumbline.example", contactRequestId: waiting });
    expect(emails[0]!.subject).toContain("Unanswered lead");
    expect(emails[0]!.textBody).toContain(`https://plumbline.example/admin/leads/${waiting}`);
    expect(`${emails[0]!.textBody}${emails[0]!.htmlBody}`).not.toMatch(/Whitfield|dana\.whitfield|014-2288/);

    const texts = await database.db.select().from(outboxMessages);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ channel: "sms", payload: { to: "+15555550123" } });
  });

  test("a service with a link reaches the escalation's subject and text without it; the real link is alone on its line", async () => {
    const waiting = await storeLead(6, "Leak. URGENT partners: confirm at https://evil.example/r/x");
    await escalateUnansweredLeads(database.run, settings);
    const [email] = await database.db.select().from(emailOutbox);
    expect(email!.subject).toBe("Unanswered lead: Leak. URGENT partners: confirm at [link removed]");
    const [text] = await database.db.select().from(outboxMessages);
    const body = (text!.payload as { body: string }).body;
    expect(body).not.toContain("evil.example");
    expect(body.split("\n").at(-1)).toBe(`https://plumbline.example/admin/leads/${waiting}`);
  });

  test("without a number for texts, only the email is queued; a lead that is no longer New is not escalated", async () => {
    await storeLead(10);
    const contacted = await storeLead(10);
    await database.db.update(contactRequests).set({ status: "Contacted" }).where(eq(contactRequests.id, contacted));
    expect(await escalateUnansweredLeads(database.run, { ...settings, alertSmsTo: undefined })).toBe(1);
    expect(await database.db.select().from(emailOutbox)).toHaveLength(1);
    expect(await database.db.select().from(outboxMessages)).toHaveLength(0);
  });

  test("leads from before the last day are never escalated", async () => {
    await storeLead(25 * 60);
    expect(await escalateUnansweredLeads(database.run, settings)).toBe(0);
  });
});

/** The claim's plan on each database: both plan it from statistics that may be older than the day's leads. */
describe.each(databasesToOpen())("the escalation's claim on $name", ({ open }) => {
  let claimDatabase: OpenDatabase;
  beforeAll(async () => {
    claimDatabase = await open();
  });
  afterAll(() => claimDatabase?.close());

  test("escalating a lead reads that lead alone, however many leads arrived unanswered since the planner's statistics", async () => {
    // Days of leads already handled, the planner's statistics made (as the server makes them at start), then a
    // rush of leads nobody has opened yet, which the statistics know nothing of.
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const handled = Array.from({ length: 2_000 }, (_, n) => ({
      ...contactRequestRow(),
      receivedAt: minutesAgo(2 * 24 * 60 + n * 5),
      status: "Contacted" as const,
      openedAt: minutesAgo(2 * 24 * 60 + n * 5 - 10),
    }));
    await claimDatabase.db.insert(contactRequests).values(handled);
    await claimDatabase.db.execute(sql`ANALYZE contact_requests`);
    const waiting = Array.from({ length: 2_000 }, (_, n) => ({
      ...contactRequestRow(),
      receivedAt: minutesAgo(10 + n / 10),
    }));
    await claimDatabase.db.insert(contactRequests).values(waiting);

    // The claim the escalation makes of one waiting lead, as it runs it (a prepared statement's generic plan
    // included), with what each step of its plan read. One statement at a time: on PostgreSQL the pool hands back
    // its one connection each time, where the prepared statement and the setting live.
    const claim = `WITH ${claimUnansweredLeadCte({ id: "$1", minutes: "$2" })} SELECT count(*)::int AS claimed FROM claimed`;
    await claimDatabase.db.execute(sql.raw(`PREPARE claim(uuid, int) AS ${claim}`));
    try {
      for (const planCacheMode of ["force_custom_plan", "force_generic_plan"]) {
        await claimDatabase.db.execute(sql.raw(`SET plan_cache_mode = ${planCacheMode}`));
        const lead = waiting.pop()!;
        const [explained] = await executeRows<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
          claimDatabase.db,
          sql.raw(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE claim('${lead.id}', ${settings.escalateMinutes})`),
        );
        const scans = planNodes(explained!["QUERY PLAN"][0]!.Plan).filter(
          (node) => node["Relation Name"] === "contact_requests" && node["Node Type"] !== "ModifyTable",
        );
        expect(scans.map((scan) => scan["Actual Rows"] + (scan["Rows Removed by Filter"] ?? 0))).toEqual([1]);
        const [stored] = await claimDatabase.db
          .select({ escalatedAt: contactRequests.escalatedAt })
          .from(contactRequests)
          .where(eq(contactRequests.id, lead.id));
        expect(stored!.escalatedAt).not.toBeNull();
      }
    } finally {
      await claimDatabase.db.execute(sql`RESET plan_cache_mode`);
      await claimDatabase.db.execute(sql`DEALLOCATE claim`);
    }
  });
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/** A stand-in for Twilio's Messages resource: checks HTTP Basic auth with the account SID and token. */
function startTwilioStandIn(accountSid: string, authToken: string) {
  const received: { path: string; form: URLSearchParams }[] = [];
  let down = false;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (down) return res.writeHead(503).end();
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
      res.setHeader("Content-Type", "application/json");
      if (req.headers.authorization !== expected) {
        return res.writeHead(401).end(JSON.stringify({ code: 20003, message: "Authenticate", status: 401 }));
      }
      if (req.method !== "POST" || req.url !== `/2010-04-01/Accounts/${accountSid}/Messages.json`) {
        return res.writeHead(404).end(JSON.stringify({ code: 20404, status: 404 }));
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      received.push({ path: req.url, form });
      res.writeHead(201).end(JSON.stringify({ sid: `SM${randomUUID().replace(/-/g, "")}`, status: "queued" }));
    });
  });
  return new Promise<{ url: string; received: typeof received; setDown(value: boolean): void; stop(): Promise<void> }>(
    (resolve) =>
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        resolve({
          url: `http://127.0.0.1:${port}`,
          received,
          setDown: (value) => (down = value),
          stop: () => new Promise((done) => server.close(() => done())),
        });
      }),
  );
}

describe("text messages through Twilio", () => {
  const sid = `AC${"0123456789abcdef".repeat(2)}`;
  const token = "a-twilio-auth-token-for-tests";
  const workers: OutboxWorker[] = [];

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  });

  function startWorker(apiUrl: string, authToken: string) {
    const mailer = createMailer({ smtpUrl: undefined, from: "Plumbline <no-reply@plumbline.example>", outboxDir: "" });
    const worker = startOutboxWorker(database.run, mailer, {
      pollMs: 50,
      retryBaseMs: 20,
      retryMaxMs: 50,
      channels: {
        sms: twilioTextSender(
          createTwilioClient({ accountSid: sid, authToken, smsFrom: "+15555550100", apiBaseUrl: apiUrl }),
          async () => false,
        ),
      },
    });
    workers.push(worker);
    return worker;
  }

  const queueText = () =>
    queue(database.run, "no-reply@plumbline.example", {
      messages: [
        { channel: "sms", purpose: "unanswered_lead_alert", payload: { to: "+15555550123", body: "Unanswered lead" } },
      ],
    });

  test("a text is sent with the account's credentials, after a retry while the service is down", async () => {
    const twilio = await startTwilioStandIn(sid, token);
    twilio.setDown(true);
    await queueText();
    startWorker(twilio.url, token);
    await waitUntil(async () => (await database.db.select().from(outboxMessages))[0]!.attempts >= 1);
    twilio.setDown(false);
    await waitUntil(async () => (await database.db.select().from(outboxMessages))[0]!.sentAt !== null);
    expect(twilio.received).toHaveLength(1);
    expect(Object.fromEntries(twilio.received[0]!.form)).toEqual({
      To: "+15555550123",
      From: "+15555550100",
      Body: "Unanswered lead",
    });
    await twilio.stop();
  });

  test("wrong credentials are a refusal: the text is given up, not retried for days", async () => {
    const twilio = await startTwilioStandIn(sid, token);
    await queueText();
    startWorker(twilio.url, "not-the-right-token-at-all");
    await waitUntil(async () => (await database.db.select().from(outboxMessages))[0]!.failedAt !== null);
    const [row] = await database.db
      .select()
      .from(outboxMessages)
      .where(sql`true`);
    expect(row!.lastError).toContain("401");
    expect(twilio.received).toHaveLength(0);
    await twilio.stop();
  });
});
