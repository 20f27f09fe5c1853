import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { eq } from "drizzle-orm";
import { contactRequests, leadChanges, privacyRequests } from "../../app/server/leads/schema.server.ts";
import { addPartner, saveRoutingSettings } from "~/server/partners/index.server.ts";
import { postJson, testEnv, validContact, validOptOut, waitUntil } from "../../tooling/local-services.ts";
import { onBothDatabases, storedRowCounts } from "./both-databases.ts";
import { addDays, formatDate, formatTime, localDate } from "~/lib/operator-time.ts";

const databases = onBothDatabases();
const { drivers } = databases;
/** The operator's zone, whatever the server's own: the emails' dates and times are the operator's. */
const OPERATOR_TIME_ZONE = "America/Chicago";

describe.each(drivers)("lead API on $name", ({ storage }) => {
  let running: RunningServer;

  beforeAll(async () => {
    databases.smtp.received.length = 0;
    running = await startServer(
      testEnv({
        ...(await storage()),
        SMTP_URL: databases.smtp.url,
        ALLOWED_ORIGINS: "https://partner.example",
        OPERATOR_TIME_ZONE,
      }),
    );
  });

  afterAll(async () => {
    await running?.close();
  });

  test("a contact request is stored verbatim and the operator gets an escaped notification that replies to the visitor", async () => {
    const lead = { ...validContact, lastName: "O'Brien <script>alert(1)</script>", message: "Leak & flood 🚰\nمرحبا" };
    const response = await postJson(running.url, lead);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const [stored] = await running.services.db.select().from(contactRequests);
    expect(stored).toMatchObject({ ...lead, id: response.body.id, channel: "api" });
    expect(stored!.consentText).toMatch(/^By submitting this form/);

    await waitUntil(() => databases.smtp.received.some((mail) => mail.text.includes(String(response.body.id))));
    const mail = databases.smtp.received.find((received) => received.text.includes(String(response.body.id)))!;
    expect(mail.envelopeTo).toEqual(["leads@operator.example"]);
    expect(mail.to).toEqual(["leads@operator.example"]);
    expect(mail.replyTo).toEqual(["ann.lee@example.com"]);
    expect(mail.subject).toBe(`New estimate request from Ann O'Brien <script>alert(1)</script>`);
    expect(mail.text).toContain("Additional details: Leak & flood 🚰\nمرحبا");
    expect(mail.html).toContain("O&#39;Brien &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.html).toContain("Leak &amp; flood 🚰\nمرحبا");
    expect(mail.html).not.toContain("<script>");
    expect(mail.text).toContain(`Received: ${formatTime(stored!.receivedAt, OPERATOR_TIME_ZONE)}\n`);
    expect(mail.text).toMatch(/Received: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M C[SD]T\n/);
  });

  test('a ZIP code is kept with the lead; with "Refer new leads automatically" on, the lead is offered at once to the partner serving it', async () => {
    const { db } = running.services;
    await addPartner(db, {
      name: "Zed Ruiz",
      business: "Zed Plumbing",
      phone: "555-010-0000",
      email: "zed@partners.example",
      services: ["Drain Services"],
      zipCodes: ["78701"],
      feeMinor: null,
      serviceFees: {},
    });
    await saveRoutingSettings(db, { routeCalls: false, defaultCallFeeMinor: 0, referAutomatically: true });
    const refused = await postJson(running.url, { ...validContact, zip: "7870" });
    expect(refused.status).toBe(422);
    expect(refused.body.fieldErrors).toEqual({ zip: "Please enter a 5-digit ZIP code, like 10001" });

    const response = await postJson(running.url, { ...validContact, service: "drain services", zip: "78701" });
    expect(response.status).toBe(200);
    const [stored] = await db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.id, String(response.body.id)));
    expect(stored!.zip).toBe("78701");
    await waitUntil(() => databases.smtp.received.some((mail) => mail.envelopeTo.includes("zed@partners.example")));
    const notes = await db
      .select()
      .from(leadChanges)
      .where(eq(leadChanges.contactRequestId, String(response.body.id)));
    expect(notes.map((note) => note.note)).toEqual([
      "Referral offered automatically to Zed Ruiz (priority 2, serves 78701 at this hour)",
    ]);
    await saveRoutingSettings(db, { routeCalls: false, defaultCallFeeMinor: 0, referAutomatically: false });
  });

  test("a lead sent with Global Privacy Control is marked so, and the operator is told not to sell or share it", async () => {
    const plain = await postJson(running.url, { ...validContact, firstName: "Plain" });
    const private_ = await postJson(running.url, { ...validContact, firstName: "Private" }, { "Sec-GPC": "1" });
    expect([plain.status, private_.status]).toEqual([200, 200]);
    const rows = await running.services.db.select().from(contactRequests);
    const byId = (id: unknown) => rows.find((row) => row.id === id)!;
    expect(byId(plain.body.id).globalPrivacyControl).toBe(false);
    expect(byId(private_.body.id).globalPrivacyControl).toBe(true);

    const mailFor = (id: unknown) => databases.smtp.received.find((mail) => mail.text.includes(String(id)));
    await waitUntil(() => mailFor(plain.body.id) !== undefined && mailFor(private_.body.id) !== undefined);
    expect(mailFor(private_.body.id)!.subject).toBe("New estimate request from Private Lee (Global Privacy Control)");
    expect(mailFor(private_.body.id)!.text).toContain("do not sell or share their details");
    expect(mailFor(plain.body.id)!.subject).toBe("New estimate request from Plain Lee");
    expect(mailFor(plain.body.id)!.text).not.toContain("do not sell or share their details");
  });

  test("an opt-out is stored due 30 of the operator's days out; the requester gets a confirmation and the operator a notice, dated in the operator's zone", async () => {
    const response = await postJson(running.url, validOptOut);
    expect(response.status).toBe(200);
    const id = String(response.body.id);

    const [stored] = await running.services.db.select().from(privacyRequests);
    expect(stored).toMatchObject({ id, name: "Bob Stone", email: "bob@example.com", message: "Please stop." });
    const receivedDay = localDate(stored!.receivedAt, OPERATOR_TIME_ZONE);
    expect(localDate(stored!.dueAt, OPERATOR_TIME_ZONE)).toBe(addDays(receivedDay, 30));
    const [received, due] = [
      formatDate(stored!.receivedAt, OPERATOR_TIME_ZONE),
      formatDate(stored!.dueAt, OPERATOR_TIME_ZONE),
    ];
    expect(stored!.completedAt).toBeNull();

    const byRecipient = (address: string) => databases.smtp.received.find((mail) => mail.envelopeTo[0] === address);
    await waitUntil(
      () => byRecipient("bob@example.com") !== undefined && byRecipient("privacy@operator.example") !== undefined,
    );
    const confirmation = byRecipient("bob@example.com")!;
    expect(confirmation.subject).toBe("We received your opt-out request");
    expect(confirmation.replyTo).toEqual(["privacy@operator.example"]);
    expect(confirmation.text).toContain(
      `We received your request on ${received} to opt out of the sale or sharing of your personal information. ` +
        `We will process it in accordance with applicable laws, at the latest by ${due}.`,
    );
    // Nothing the sender typed is echoed to the address they gave.
    expect(confirmation.text).not.toContain("Bob Stone");
    const notice = byRecipient("privacy@operator.example")!;
    expect(notice.replyTo).toEqual(["bob@example.com"]);
    expect(notice.subject).toBe(`Opt-out request from Bob Stone (due ${due})`);
    expect(notice.text).toContain(`It must be processed by ${due};`);
    expect(notice.text).toContain(`Received: ${formatTime(stored!.receivedAt, OPERATOR_TIME_ZONE)}\nDue by: ${due}\n`);
    expect(notice.text).toContain(id);
  });

  test("invalid fields answer 422 with the spec's messages, and nothing is stored", async () => {
    const before = await storedRowCounts(running);
    const optOut = await postJson(running.url, { name: "B", email: "not-an-email", type: "opt-out" });
    expect(optOut.status).toBe(422);
    expect(optOut.body.fieldErrors).toEqual({
      name: "Name must be at least 2 characters",
      email: "Please enter a valid email address",
    });
    const contact = await postJson(running.url, { ...validContact, phone: "call me", message: "" });
    expect(contact.status).toBe(422);
    expect(contact.body).toMatchObject({
      error: expect.any(String),
      fieldErrors: { phone: "Please enter a valid phone number", message: "Additional details is required" },
    });
    const unknown = await postJson(running.url, { ...validContact, isAdmin: true });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toBe("Unexpected field: isAdmin");
    expect(await storedRowCounts(running)).toEqual(before);
  });

  test("wrong media type, broken JSON, oversized bodies, foreign origins and a filled honeypot change nothing", async () => {
    const before = await storedRowCounts(running);
    const url = `${running.url}/functions/v1/send-contact-email`;
    const text = await fetch(url, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hi" });
    expect(text.status).toBe(415);
    expect((await postJson(running.url, '{"firstName": "Ann",')).status).toBe(400);
    expect((await postJson(running.url, "[1,2]")).status).toBe(400);

    const oversized = { ...validContact, message: "x".repeat(40_000) };
    expect((await postJson(running.url, oversized)).status).toBe(413);
    // Chunked: no Content-Length, so the limit must be counted while reading.
    const chunks = [JSON.stringify(oversized).slice(0, 20_000), JSON.stringify(oversized).slice(20_000)];
    const chunked = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({ error: "The request is larger than 32 KB." });

    const foreign = await postJson(running.url, validContact, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const honeypot = await postJson(running.url, { ...validContact, website: "http://spam.example" });
    expect(honeypot.status).toBe(400);
    expect(await storedRowCounts(running)).toEqual(before);

    const partner = await postJson(running.url, validContact, { Origin: "https://partner.example" });
    expect(partner.status).toBe(200);
    const sameOrigin = await postJson(running.url, validContact, { Origin: running.url });
    expect(sameOrigin.status).toBe(200);
    expect((await storedRowCounts(running)).contacts).toBe(before.contacts + 2);
  });

  test("GET is not a way in", async () => {
    const response = await fetch(`${running.url}/functions/v1/send-contact-email`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
  });
});

describe("the per-IP form limit", () => {
  test("answers 429 with Retry-After past the limit, counted in PostgreSQL across instances", async () => {
    const databaseUrl = await databases.postgres.createDatabase();
    const env = testEnv({ DATABASE_URL: databaseUrl, SMTP_URL: databases.smtp.url, FORM_RATE_LIMIT_PER_HOUR: "3" });
    const [first, second] = [await startServer(env), await startServer(env)];
    try {
      expect((await postJson(first.url, validContact)).status).toBe(200);
      expect((await postJson(second.url, validContact)).status).toBe(200);
      expect((await postJson(first.url, validContact)).status).toBe(200);
      const limited = await postJson(second.url, validContact);
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect((await storedRowCounts(first)).contacts).toBe(3);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  test("applies on PGlite too", async () => {
    const running = await startServer(testEnv({ SMTP_URL: databases.smtp.url, FORM_RATE_LIMIT_PER_HOUR: "1" }));
    try {
      expect((await postJson(running.url, validOptOut)).status).toBe(200);
      const limited = await postJson(running.url, validOptOut);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await storedRowCounts(running)).privacy).toBe(1);
    } finally {
      await running.close();
    }
  });
});
