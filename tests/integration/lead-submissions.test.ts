import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { contactRequests, privacyRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { postJson, testEnv, validContact, validOptOut, waitUntil } from "../../tooling/local-services.ts";

/** Repeats of one submission, and the limits on who gets mailed and how often. */

import { onBothDatabases } from "./both-databases.ts";

const databases = onBothDatabases();
const { drivers } = databases;

async function counts(running: RunningServer) {
  const { db } = running.services;
  const [[contacts], [optOuts], [emails]] = await Promise.all([
    db.select({ value: count() }).from(contactRequests),
    db.select({ value: count() }).from(privacyRequests),
    db.select({ value: count() }).from(emailOutbox),
  ]);
  return { contacts: contacts!.value, optOuts: optOuts!.value, emails: emails!.value };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

function postForm(running: RunningServer, path: string, fields: Record<string, string>, headers = {}) {
  return fetch(`${running.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const hiddenSubmissionId = (html: string) => /<input type="hidden" name="submissionId" value="([^"]+)"/.exec(html)?.[1];

describe.each(drivers)("repeated submissions on $name", ({ storage }) => {
  let running: RunningServer;

  beforeAll(async () => {
    running = await startServer(testEnv({ ...(await storage()), SMTP_URL: databases.smtp.url }));
  });

  afterAll(() => running?.close());

  test("a repeated Idempotency-Key gets the first answer and stores and mails nothing new; another lead under it gets 422", async () => {
    const before = await counts(running);
    const lead = { ...validContact, service: `Idempotent ${Date.now()}` };
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await postJson(running.url, lead, headers);
    expect(first.status).toBe(200);
    const again = await postJson(running.url, lead, headers);
    expect(again).toMatchObject({ status: 200, body: first.body });
    const other = await postJson(running.url, { ...lead, phone: "555 000 1111" }, headers);
    expect(other.status).toBe(422);
    expect(other.body.error).toMatch(/already used for a different request/);
    expect(await counts(running)).toEqual({ ...before, contacts: before.contacts + 1, emails: before.emails + 1 });
    await waitUntil(() => databases.smtp.received.some((mail) => mail.text.includes(lead.service)));
    await settle();
    expect(databases.smtp.received.filter((mail) => mail.text.includes(lead.service))).toHaveLength(1);
  });

  test("a malformed Idempotency-Key is refused with 400 and stores nothing", async () => {
    const before = await counts(running);
    for (const key of ["x".repeat(65), "has space", "semi;colon", ""]) {
      const response = await postJson(running.url, validContact, { "Idempotency-Key": key });
      expect(response.status, key).toBe(400);
    }
    expect(await counts(running)).toEqual(before);
  });

  test("concurrent requests with one key store one lead and all get its id", async () => {
    const before = await counts(running);
    const headers = { "Idempotency-Key": `concurrent-${Date.now()}` };
    const responses = await Promise.all(Array.from({ length: 8 }, () => postJson(running.url, validContact, headers)));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
    expect((await counts(running)).contacts).toBe(before.contacts + 1);
  });

  test("a form posted twice without scripts, with or without the hidden id, stores one lead", async () => {
    const before = await counts(running);
    const lead = { ...validContact, service: `No JS ${Date.now()}` };
    // From the prerendered page: no id, so the same lead from the same client is a repeat for a while.
    const first = await postForm(running, "/contact", lead);
    expect(first.status).toBe(200);
    const firstPage = await first.text();
    expect(firstPage).toContain("Message sent successfully!");
    // The result page carries a fresh id for the next, different, request.
    const nextId = hiddenSubmissionId(firstPage);
    expect(nextId).toMatch(/^[0-9a-f]{32}$/);
    expect((await postForm(running, "/contact", lead)).status).toBe(200);
    expect((await counts(running)).contacts).toBe(before.contacts + 1);

    const second = { ...lead, service: `${lead.service} again` };
    expect((await postForm(running, "/contact", { ...second, submissionId: nextId! })).status).toBe(200);
    const reloaded = await postForm(running, "/contact", { ...second, submissionId: nextId! });
    expect(reloaded.status).toBe(200);
    expect(hiddenSubmissionId(await reloaded.text())).not.toBe(nextId);
    expect((await counts(running)).contacts).toBe(before.contacts + 2);

    const optOut = { name: "Noscript Person", email: `noscript-${Date.now()}@example.com` };
    expect((await postForm(running, "/do-not-sell", optOut)).status).toBe(200);
    expect((await postForm(running, "/do-not-sell", optOut)).status).toBe(200);
    expect((await counts(running)).optOuts).toBe(before.optOuts + 1);
  });

  test("an opt-out confirmation goes to one address at most 3 times a day; every request is kept and the operator told of each", async () => {
    const before = await counts(running);
    const stamp = Date.now();
    const spellings = [
      `victim-${stamp}@example.com`,
      `Victim-${stamp}@Example.com`,
      `victim-${stamp}+1@example.com`,
      `VICTIM-${stamp}+two@EXAMPLE.COM`,
      `victim-${stamp}@example.com`,
    ];
    for (const [index, email] of spellings.entries()) {
      expect((await postJson(running.url, { ...validOptOut, name: `Requester ${stamp} ${index}`, email })).status).toBe(
        200,
      );
    }
    expect((await counts(running)).optOuts).toBe(before.optOuts + 5);
    const notices = () => databases.smtp.received.filter((mail) => mail.subject.includes(`Requester ${stamp}`));
    const confirmations = () =>
      databases.smtp.received.filter(
        (mail) => mail.subject === "We received your opt-out request" && mail.envelopeTo[0]!.includes(`${stamp}`),
      );
    await waitUntil(() => notices().length === 5 && confirmations().length >= 3);
    await settle();
    expect(confirmations()).toHaveLength(3);
  });
});

describe("limits per client", () => {
  test("IPv6 clients are limited per /64, so a fresh address in the same network gets no fresh limit", async () => {
    const running = await startServer(
      testEnv({ SMTP_URL: databases.smtp.url, TRUST_PROXY: "1", FORM_RATE_LIMIT_PER_HOUR: "2" }),
    );
    try {
      const from = (address: string) => postJson(running.url, validContact, { "X-Forwarded-For": address });
      expect((await from("2001:db8:aa:1::1")).status).toBe(200);
      expect((await from("2001:db8:aa:1::2")).status).toBe(200);
      expect((await from("2001:db8:aa:1:ffff:1:2:3")).status).toBe(429);
      expect((await from("2001:db8:aa:2::1")).status).toBe(200);
      expect((await counts(running)).contacts).toBe(3);
    } finally {
      await running.close();
    }
  });
});
