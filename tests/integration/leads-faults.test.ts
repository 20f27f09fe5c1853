import { count, eq, isNull } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import type { FieldErrors } from "~/lib/lead-schemas.ts";
import { contactRequests, privacyRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import {
  postJson,
  startSmtpPeer,
  testEnv,
  validContact,
  validOptOut,
  waitUntil,
} from "../../tooling/local-services.ts";
import { onBothDatabases } from "./both-databases.ts";

const databases = onBothDatabases();
const { drivers } = databases;

async function unsentCount(running: RunningServer) {
  const [row] = await running.services.db
    .select({ value: count() })
    .from(emailOutbox)
    .where(isNull(emailOutbox.sentAt));
  return row!.value;
}

function expectEachOnce(messageIds: (string | undefined)[], expected: number) {
  expect(messageIds).toHaveLength(expected);
  expect(new Set(messageIds).size).toBe(expected);
}

const contactNumber = (index: number) => ({ ...validContact, service: `Job ${index}` });

describe.each(drivers)("faults and load on $name", ({ storage }) => {
  test("SMTP down while 20 requests are accepted: once it is back, all 20 emails arrive, each once", async () => {
    const smtp = await startSmtpPeer();
    await smtp.goDown();
    const running = await startServer(testEnv({ ...(await storage()), SMTP_URL: smtp.url }));
    try {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) => postJson(running.url, contactNumber(index))),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
      // The worker has tried and backed off, recording why.
      await waitUntil(async () => {
        const rows = await running.services.db.select().from(emailOutbox);
        return rows.length === 20 && rows.every((row) => row.attempts >= 2 && row.lastError !== null);
      });
      await smtp.comeBack();
      await waitUntil(() => smtp.received.length >= 20);
      await waitUntil(async () => (await unsentCount(running)) === 0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expectEachOnce(
        smtp.received.map((mail) => mail.messageId),
        20,
      );
      expect(new Set(smtp.received.map((mail) => mail.subject)).size).toBe(1);
      expect(new Set(smtp.received.map((mail) => mail.text.match(/Service needed: (Job \d+)/)![1])).size).toBe(20);
    } finally {
      await running.close();
      await smtp.stop();
    }
  });

  test("a restart with a backlog in the outbox delivers the backlog", async () => {
    const smtp = await startSmtpPeer();
    await smtp.goDown();
    const settings = await storage();
    const first = await startServer(testEnv({ ...settings, SMTP_URL: smtp.url }));
    const accepted: string[] = [];
    try {
      for (let index = 0; index < 5; index++) {
        accepted.push(String((await postJson(first.url, contactNumber(index))).body.id));
        // Each opt-out from its own address: one address gets at most 3 confirmations a day.
        const optOut = { ...validOptOut, name: `Person ${index}`, email: `person${index}@example.com` };
        accepted.push(String((await postJson(first.url, optOut)).body.id));
      }
      expect(await unsentCount(first)).toBe(15);
    } finally {
      await first.close();
    }
    await smtp.comeBack();
    const second = await startServer(testEnv({ ...settings, SMTP_URL: smtp.url }));
    try {
      await waitUntil(() => smtp.received.length >= 15);
      await waitUntil(async () => (await unsentCount(second)) === 0);
      expectEachOnce(
        smtp.received.map((mail) => mail.messageId),
        15,
      );
      for (const id of accepted) expect(smtp.received.some((mail) => mail.text.includes(id))).toBe(true);
    } finally {
      await second.close();
      await smtp.stop();
    }
  });

  test("200 concurrent valid submissions give 200 rows and 200 emails, with no duplicates", async () => {
    const smtp = await startSmtpPeer();
    const running = await startServer(testEnv({ ...(await storage()), SMTP_URL: smtp.url }));
    try {
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, index) => postJson(running.url, contactNumber(index))),
      );
      expect(responses.filter((response) => response.status === 200)).toHaveLength(200);
      expect(new Set(responses.map((response) => response.body.id)).size).toBe(200);
      const [rows] = await running.services.db.select({ value: count() }).from(contactRequests);
      expect(rows!.value).toBe(200);
      await waitUntil(() => smtp.received.length >= 200, 60_000);
      await waitUntil(async () => (await unsentCount(running)) === 0);
      expectEachOnce(
        smtp.received.map((mail) => mail.messageId),
        200,
      );
    } finally {
      await running.close();
      await smtp.stop();
    }
  });
});

describe("faults only a database server has", () => {
  test("an unavailable database answers 503 and stores nothing; the next request after it returns succeeds", async () => {
    const smtp = await startSmtpPeer();
    const databaseUrl = await databases.postgres.createDatabase();
    const running = await startServer(testEnv({ DATABASE_URL: databaseUrl, SMTP_URL: smtp.url }));
    try {
      await databases.postgres.makeUnavailable(databaseUrl);
      const contact = await postJson(running.url, validContact);
      expect(contact.status).toBe(503);
      expect(contact.body).toEqual({ error: expect.stringMatching(/could not save/), fieldErrors: {} });
      expect((await postJson(running.url, validOptOut)).status).toBe(503);
      const page = await fetch(`${running.url}/contact`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...validContact }),
      });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("Error sending message");

      await databases.postgres.makeAvailable(databaseUrl);
      const [contacts] = await running.services.db.select({ value: count() }).from(contactRequests);
      const [optOuts] = await running.services.db.select({ value: count() }).from(privacyRequests);
      expect([contacts!.value, optOuts!.value]).toEqual([0, 0]);
      expect((await postJson(running.url, validContact)).status).toBe(200);
      await waitUntil(() => smtp.received.length === 1);
    } finally {
      await running.close();
      await smtp.stop();
    }
  });

  test("two instances draining one outbox send each email once", async () => {
    const smtp = await startSmtpPeer();
    await smtp.goDown();
    const env = testEnv({ DATABASE_URL: await databases.postgres.createDatabase(), SMTP_URL: smtp.url });
    const instances = [await startServer(env), await startServer(env)];
    try {
      await Promise.all(
        Array.from({ length: 40 }, (_, index) => postJson(instances[index % 2]!.url, contactNumber(index))),
      );
      await smtp.comeBack();
      await waitUntil(() => smtp.received.length >= 40, 30_000);
      await waitUntil(async () => (await unsentCount(instances[0]!)) === 0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expectEachOnce(
        smtp.received.map((mail) => mail.messageId),
        40,
      );
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await smtp.stop();
    }
  });
});

interface HostileCase {
  name: string;
  body: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  expectedStatus: number;
  /** The answer's error, where other faults share the status. */
  expectedError?: RegExp;
  /** The answer's field errors, exactly: the request was refused for this value and nothing else. */
  expectedFieldErrors?: FieldErrors;
}

const json = (value: unknown) => JSON.stringify(value);

/** A JSON body with raw bytes in place of `placeholder`, inside one of its string values. */
function jsonWithRawBytes(value: unknown, placeholder: string, bytes: number[]): Uint8Array<ArrayBuffer> {
  const [before, after] = json(value).split(placeholder) as [string, string];
  const encoder = new TextEncoder();
  return new Uint8Array([...encoder.encode(before), ...bytes, ...encoder.encode(after)]);
}

const UNACCEPTABLE = "contains characters we cannot accept";

/** Requests that must be refused with their 4xx and leave no trace. */
const refused: HostileCase[] = [
  {
    name: "CRLF header injection in a name",
    body: json({ ...validContact, firstName: "Ann\r\nBcc: victim@example.com" }),
    expectedStatus: 422,
  },
  {
    name: "LF header injection in an email",
    body: json({ ...validContact, email: "ann@example.com\nBcc: victim@example.com" }),
    expectedStatus: 422,
  },
  {
    name: "a second address in the email",
    body: json({ ...validContact, email: "ann@example.com>, <victim@example.com" }),
    expectedStatus: 422,
  },
  {
    name: "header injection in an opt-out name",
    body: json({ ...validOptOut, name: "Bob\r\nSubject: hi" }),
    expectedStatus: 422,
  },
  { name: "a 2 MB body", body: json({ ...validContact, message: "x".repeat(2 * 1024 * 1024) }), expectedStatus: 413 },
  {
    name: "broken JSON",
    body: '{"firstName":"Ann","lastName":',
    expectedStatus: 400,
    expectedError: /not valid JSON/,
  },
  { name: "JSON null", body: "null", expectedStatus: 400 },
  { name: "a JSON string", body: '"hello"', expectedStatus: 400 },
  {
    name: "invalid UTF-8 in a name",
    body: jsonWithRawBytes({ ...validContact, firstName: "Ann<bytes>" }, "<bytes>", [0xff, 0xfe]),
    expectedStatus: 400,
    expectedError: /not valid UTF-8/,
  },
  {
    name: "numbers for strings",
    body: json({ ...validContact, firstName: 123, phone: 5551234567 }),
    expectedStatus: 422,
  },
  { name: "an array for the message", body: json({ ...validContact, message: ["a", "b"] }), expectedStatus: 422 },
  { name: "an object for the email", body: json({ ...validContact, email: { $ne: null } }), expectedStatus: 422 },
  { name: "an unknown field", body: json({ ...validContact, status: "paid" }), expectedStatus: 422 },
  { name: "a __proto__ key", body: `{"__proto__":{"admin":true},${json(validContact).slice(1)}`, expectedStatus: 422 },
  { name: "a contact body typed as an opt-out", body: json({ ...validContact, type: "opt-out" }), expectedStatus: 422 },
  {
    name: "an opt-out with a wrong type",
    body: json({ ...validOptOut, type: "delete-everything" }),
    expectedStatus: 422,
  },
  {
    name: "a NUL character",
    body: json({ ...validContact, message: "a\u0000b" }),
    expectedStatus: 422,
    expectedFieldErrors: { message: `Additional details ${UNACCEPTABLE}` },
  },
  {
    name: "a C1 control character",
    body: json({ ...validContact, service: "Drain\u0085cleaning" }),
    expectedStatus: 422,
    expectedFieldErrors: { service: `Service needed ${UNACCEPTABLE}` },
  },
  {
    // JSON.stringify writes the lone surrogate as the escape \ud800, which JSON.parse turns back into it.
    name: "a lone surrogate",
    body: json({ ...validContact, firstName: "Ann\ud800" }),
    expectedStatus: 422,
    expectedFieldErrors: { firstName: `First name ${UNACCEPTABLE}` },
  },
  { name: "an overlong name", body: json({ ...validContact, lastName: "L".repeat(61) }), expectedStatus: 422 },
  { name: "an overlong message", body: json({ ...validContact, message: "m".repeat(5001) }), expectedStatus: 422 },
  { name: "no content type", body: json(validContact), contentType: "", expectedStatus: 415 },
  { name: "XML", body: "<lead/>", contentType: "application/xml", expectedStatus: 415 },
  { name: "a filled honeypot", body: json({ ...validContact, website: "https://seo.example" }), expectedStatus: 400 },
];

/** Valid requests with awkward content: stored exactly as sent, and escaped in the email. */
const accepted = [
  { ...validContact, firstName: "<script>alert('x')</script>", service: `<img src=x onerror="alert(1)">` },
  { ...validContact, firstName: "Zoë 👩‍🔧", lastName: "🚰💧", message: "Fix it 🙏\n\nThanks!" },
  { ...validContact, firstName: "مريم", lastName: "כהן", service: "תיקון דליפה", message: "\u202Egnp.exe‬ مرحبا" },
  { ...validContact, lastName: 'O\'Neil & Sons "Plumbing"', message: "=cmd|' /C calc'!A0" },
];

describe.each(drivers)("hostile input on $name", ({ storage }) => {
  test("every hostile request gets its 4xx and stores nothing; valid awkward ones are stored verbatim and escaped", async () => {
    const smtp = await startSmtpPeer();
    const running = await startServer(testEnv({ ...(await storage()), SMTP_URL: smtp.url }));
    try {
      for (const item of refused) {
        const response = await fetch(`${running.url}/functions/v1/send-contact-email`, {
          method: "POST",
          headers: item.contentType === "" ? {} : { "Content-Type": item.contentType ?? "application/json" },
          body: item.body,
        });
        expect(response.status, item.name).toBe(item.expectedStatus);
        const answer = (await response.json()) as { error: unknown; fieldErrors: unknown };
        expect(answer.error, item.name).toEqual(
          item.expectedError ? expect.stringMatching(item.expectedError) : expect.any(String),
        );
        if (item.expectedFieldErrors) expect(answer.fieldErrors, item.name).toEqual(item.expectedFieldErrors);
      }
      const [contacts] = await running.services.db.select({ value: count() }).from(contactRequests);
      const [optOuts] = await running.services.db.select({ value: count() }).from(privacyRequests);
      const [emails] = await running.services.db.select({ value: count() }).from(emailOutbox);
      expect([contacts!.value, optOuts!.value, emails!.value]).toEqual([0, 0, 0]);

      for (const lead of accepted) {
        const response = await postJson(running.url, lead);
        expect(response.status, lead.firstName).toBe(200);
        const [stored] = await running.services.db
          .select()
          .from(contactRequests)
          .where(eq(contactRequests.id, String(response.body.id)));
        expect(stored).toMatchObject(lead);
      }
      await waitUntil(() => smtp.received.length === accepted.length);
      const xss = smtp.received.find((mail) => mail.text.includes("<script>alert('x')</script>"))!;
      expect(xss.html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
      expect(xss.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
      expect(xss.html).not.toMatch(/<script|<img/);
      expect(xss.subject).toBe(`New estimate request from <script>alert('x')</script> Lee`);
      const emoji = smtp.received.find((mail) => mail.subject.includes("Zoë"))!;
      expect(emoji.subject).toBe("New estimate request from Zoë 👩‍🔧 🚰💧");
      expect(emoji.html).toContain("Fix it 🙏\n\nThanks!");
      const rtl = smtp.received.find((mail) => mail.subject.includes("مريم"))!;
      expect(rtl.text).toContain("Service needed: תיקון דליפה");
      const quotes = smtp.received.find((mail) => mail.text.includes("O'Neil"))!;
      expect(quotes.html).toContain("O&#39;Neil &amp; Sons &quot;Plumbing&quot;");
    } finally {
      await running.close();
      await smtp.stop();
    }
  });
});
