import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, inArray, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { openDatabase } from "~/server/db/index.server.ts";
import { makeMigratedFolder } from "../../tooling/migrated-database.ts";
import { savePushSubscription } from "~/server/alerts/index.server.ts";
import { saveOperator } from "~/server/console/index.server.ts";
import { createTexts, customerThread, purgeExpiredTexts, saveTextBackMessage } from "~/server/texts/index.server.ts";
import { queue } from "~/server/outbox/index.server.ts";
import { emailOutbox, outboxMessages } from "../../app/server/outbox/schema.server.ts";
import { pushSubscriptions } from "../../app/server/alerts/schema.server.ts";
import { operators } from "../../app/server/console/schema.server.ts";
import { textBacks, textMessages } from "../../app/server/texts/schema.server.ts";
import { freePort, postJson, testEnv, validContact, waitUntil } from "../../tooling/local-services.ts";
import { startServerProcess, type ServerProcess } from "../../tooling/server-process.ts";
import {
  postWebhook,
  sid,
  startTwilioStandIn,
  TEST_ACCOUNT_SID,
  TEST_AUTH_TOKEN,
  type TwilioStandIn,
} from "../twilio-stand-in.ts";

/** Texts with customers through the Twilio stand-in: signed webhooks in, the REST API (Basic auth) out. */

const SITE_URL = "https://plumbline.example";
const FROM_NUMBER = "+18005550100";
const SITE_NUMBER = "+18005550199";
const POOL_NUMBER = "+18005550101";
const COMPANY = "Plumbline Test Co";

const twilioEnv = (twilio: TwilioStandIn) => ({
  SITE_URL,
  COMPANY_NAME: COMPANY,
  TWILIO_ACCOUNT_SID: TEST_ACCOUNT_SID,
  TWILIO_AUTH_TOKEN: TEST_AUTH_TOKEN,
  TWILIO_API_URL: twilio.apiUrl,
  TWILIO_FROM_NUMBER: FROM_NUMBER,
  CALL_FORWARD_TO: "+15550100200",
  CALL_TRACKING_POOL: POOL_NUMBER,
  PHONE_E164: SITE_NUMBER,
  PHONE_DISPLAY: "1-800-555-0199",
  PUSH_ALLOW_PRIVATE: "true",
});

let twilio: TwilioStandIn;
let running: RunningServer;
let customerCounter = 0;
/** A customer's number no other test has used. */
const newCustomer = () => `+1415201${String(++customerCounter).padStart(4, "0")}`;

beforeAll(async () => {
  twilio = await startTwilioStandIn();
  running = await startServer(testEnv({ ...twilioEnv(twilio), TEXT_QUIET_HOURS: "off" }));
});

afterAll(async () => {
  await running?.close();
  await twilio?.stop();
});

const db = () => running.services.db;
const texts = () => running.services.texts!;

/** A customer's text, posted as Twilio posts it to the number's messaging webhook. */
function textIn(customer: string, body: string, extra: Record<string, string> = {}) {
  return postWebhook(running.url, SITE_URL, "/api/sms/incoming", {
    MessageSid: sid("SM"),
    AccountSid: TEST_ACCOUNT_SID,
    From: customer,
    To: POOL_NUMBER,
    Body: body,
    NumMedia: "0",
    ...extra,
  });
}

/**
 * A call from `customer` that nobody answered: the voice webhook (with Twilio's caller ID verification, when
 * given), then the Dial's outcome.
 */
async function missedCall(customer: string, serverUrl = running.url, stirVerstat?: string) {
  const callSid = sid("CA");
  await postWebhook(serverUrl, SITE_URL, "/api/calls/voice", {
    CallSid: callSid,
    From: customer,
    To: POOL_NUMBER,
    ...(stirVerstat ? { StirVerstat: stirVerstat } : {}),
  });
  const answer = await postWebhook(serverUrl, SITE_URL, "/api/calls/status", {
    CallSid: callSid,
    DialCallStatus: "no-answer",
  });
  expect(answer.status).toBe(200);
}

const textsTo = (customer: string) => twilio.texts.filter((text) => text.to === customer);
/** A signed-in operator's session cookie. */
async function signedIn(): Promise<string> {
  await saveOperator(db(), "texts-csv@operator.example", "correct horse battery staple");
  const session = await running.services.consoleAuth.signIn(
    { email: "texts-csv@operator.example", password: "correct horse battery staple" },
    "192.0.2.202",
  );
  if (session.outcome !== "signed-in") throw new Error("sign-in failed");
  return session.setCookie.split(";")[0]!;
}

/** Waits long enough for the outbox (polling every 100 ms) to have sent anything it was going to. */
const outboxSettles = () => new Promise((resolve) => setTimeout(resolve, 1_500));

describe("a customer's text", () => {
  beforeEach(() => {
    twilio.texts.length = 0;
  });

  test("is stored on their thread once, however often Twilio posts it, and alerts the operators' devices", async () => {
    const [operator] = await db()
      .insert(operators)
      .values({ id: crypto.randomUUID(), email: "texts@operator.example", passwordHash: "x" })
      .returning();
    await savePushSubscription(
      db(),
      operator!.id,
      {
        endpoint: "https://127.0.0.1:9/push/device",
        keys: { p256dh: "B".repeat(87), auth: "A".repeat(22) },
        deviceLabel: "Phone",
      },
      { allowPrivate: true },
    );
    const customer = newCustomer();
    const params = { MessageSid: sid("SM"), From: customer, To: POOL_NUMBER, Body: "Is anyone coming tonight?" };
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await postWebhook(running.url, SITE_URL, "/api/sms/incoming", params);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain("<Response></Response>");
    }
    const thread = await customerThread(db(), customer, "UTC");
    expect(thread.texts.map((text) => [text.direction, text.body, text.status])).toEqual([
      ["in", "Is anyone coming tonight?", "received"],
    ]);
    const pushes = await db().select().from(outboxMessages).where(eq(outboxMessages.purpose, "text_received_push"));
    expect(pushes).toHaveLength(1);
    expect(JSON.stringify(pushes[0]!.payload)).toContain(`/admin/texts/${customer.slice(1)}`);
    expect(JSON.stringify(pushes[0]!.payload)).not.toContain("tonight");
    // The device is made up (its key is no real one): the later tests' texts alert no one.
    await db().delete(pushSubscriptions);
  });

  test("without Twilio's signature is refused with 403 and stores nothing", async () => {
    const customer = newCustomer();
    const body = new URLSearchParams({ MessageSid: sid("SM"), From: customer, To: POOL_NUMBER, Body: "Hi" });
    const unsigned = await fetch(`${running.url}/api/sms/incoming`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(unsigned.status).toBe(403);
    const wrongKey = await postWebhook(
      running.url,
      SITE_URL,
      "/api/sms/incoming",
      Object.fromEntries(body),
      "another-auth-token-0123456789",
    );
    expect(wrongKey.status).toBe(403);
    expect((await customerThread(db(), customer, "UTC")).texts).toEqual([]);
  });

  test("STOP in any case opts the number out: no text of any kind until START", async () => {
    const customer = newCustomer();
    expect((await textIn(customer, "  stop ")).status).toBe(200);
    expect((await customerThread(db(), customer, "UTC")).optedOut).toBe(true);
    expect(await texts().send({ customer, body: "We can come at 9.", confirmedQuietHours: false })).toEqual({
      kind: "opted-out",
    });
    await missedCall(customer);
    // Nor an alert or a partner's offer, should the number be one of those.
    await queue(running.services.run, "no-reply@plumbline.example", {
      messages: [{ channel: "sms", purpose: "unanswered_lead_alert", payload: { to: customer, body: "Lead waiting" } }],
    });
    running.services.outbox.nudge("messages");
    await outboxSettles();
    expect(textsTo(customer)).toEqual([]);

    expect((await textIn(customer, "START")).status).toBe(200);
    expect(await texts().send({ customer, body: "We can come at 9.", confirmedQuietHours: false })).toEqual({
      kind: "queued",
    });
    await waitUntil(() => textsTo(customer).length === 1);
    expect(textsTo(customer)[0]).toMatchObject({ body: "We can come at 9.", from: POOL_NUMBER });
  });

  test("a word with STOP in a sentence is not an opt-out", async () => {
    const customer = newCustomer();
    await textIn(customer, "Please stop by after 5");
    expect((await customerThread(db(), customer, "UTC")).optedOut).toBe(false);
  });

  test("HELP gets one reply with the company's name and phone, unless Twilio's own opt-out handling answered", async () => {
    const customer = newCustomer();
    await textIn(customer, "help");
    await waitUntil(() => textsTo(customer).length === 1);
    expect(textsTo(customer)[0]!.body).toBe(`${COMPANY}: for help call 1-800-555-0199. Reply STOP to opt out.`);

    const another = newCustomer();
    await textIn(another, "HELP", { OptOutType: "HELP" });
    await outboxSettles();
    expect(textsTo(another)).toEqual([]);
  });

  test("a text to a number that replied STOP after it was queued is never sent", async () => {
    const customer = newCustomer();
    twilio.down = true;
    try {
      await texts().send({ customer, body: "On our way.", confirmedQuietHours: false });
      await textIn(customer, "UNSUBSCRIBE");
    } finally {
      twilio.down = false;
    }
    await outboxSettles();
    expect(textsTo(customer)).toEqual([]);
    const thread = await customerThread(db(), customer, "UTC");
    expect(thread.texts.find((text) => text.direction === "out")?.status).toBe("failed");
  });
});

describe("the missed-call text-back", () => {
  test("one text within the minute from the number called, with the company's name; once per number per 24 hours", async () => {
    expect(await saveTextBackMessage(db(), "Sorry we missed you! We'll call right back.")).toEqual({ kind: "saved" });
    const customer = newCustomer();
    await missedCall(customer);
    await waitUntil(() => textsTo(customer).length === 1, 60_000);
    expect(textsTo(customer)[0]).toMatchObject({
      from: POOL_NUMBER,
      body: `${COMPANY}: Sorry we missed you! We'll call right back. Reply STOP to opt out.`,
    });

    await missedCall(customer);
    await outboxSettles();
    expect(textsTo(customer)).toHaveLength(1);

    // A day later, the next missed call gets a text again.
    await db()
      .update(textBacks)
      .set({ queuedAt: sql`now() - interval '25 hours'` })
      .where(eq(textBacks.number, customer));
    await missedCall(customer);
    await waitUntil(() => textsTo(customer).length === 2);
  });

  test("its message is set on the Texts page: 400 and unchanged when empty", async () => {
    const cookie = await signedIn();
    // Each console form is sent with the one-time key of the page it was rendered on.
    const save = async (message: string) => {
      const form = await (await fetch(`${running.url}/admin/texts`, { headers: { Cookie: cookie } })).text();
      const formKey = /name="intent" value="text-back"\/><input type="hidden" name="formKey" value="([^"]+)"/.exec(
        form,
      )?.[1];
      return fetch(`${running.url}/admin/texts`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: running.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "text-back", formKey: formKey ?? "", message }),
        redirect: "manual",
      });
    };
    const first = await save("We missed your call and will ring you back in 10 minutes.");
    expect(first.status, await first.clone().text()).toBe(303);
    expect((await save("   ")).status).toBe(400);
    const page = await (await fetch(`${running.url}/admin/texts`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain(
      `${COMPANY}: We missed your call and will ring you back in 10 minutes. Reply STOP to opt out.`,
    );
  });

  test("a caller who withheld their number gets nothing", async () => {
    const before = twilio.texts.length;
    await missedCall("Anonymous");
    await outboxSettles();
    expect(twilio.texts).toHaveLength(before);
  });
});

describe("text-backs to spoofable caller IDs", () => {
  test("only mobile-shaped callers whose caller ID did not fail Twilio's check get one", async () => {
    const before = twilio.texts.length;
    for (const caller of [
      "+18005550123", // toll-free
      "+18885550123", // toll-free
      "+19005550123", // premium
      "+15005550123", // non-geographic
      "+14154110123", // N11 exchange
      "+14155550123", // 555
      "+12115550123", // N11 area code
    ]) {
      await missedCall(caller);
    }
    await missedCall(newCustomer(), running.url, "TN-Validation-Failed-A");
    await missedCall(newCustomer(), running.url, "TN-Validation-Failed");
    await outboxSettles();
    expect(twilio.texts).toHaveLength(before);

    const verified = newCustomer();
    await missedCall(verified, running.url, "TN-Validation-Passed-A");
    const unverified = newCustomer();
    await missedCall(unverified, running.url, "No-TN-Validation");
    await waitUntil(() => textsTo(verified).length === 1 && textsTo(unverified).length === 1);
  });

  test("at most MISSED_CALL_TEXT_PER_HOUR (30) in an hour; the operator is emailed once when the cap stops one", async () => {
    // The hour's text-backs so far: the cap's worth, to other numbers.
    const earlier = Array.from({ length: 30 }, (_, index) => ({
      number: `+1415300${String(index).padStart(4, "0")}`,
      queuedAt: new Date(Date.now() - 30 * 60_000),
    }));
    await db().insert(textBacks).values(earlier);
    const capEmails = () => db().$count(emailOutbox, eq(emailOutbox.purpose, "text_back_cap"));
    try {
      const first = newCustomer();
      const second = newCustomer();
      await missedCall(first);
      await missedCall(second);
      await outboxSettles();
      expect(textsTo(first)).toEqual([]);
      expect(textsTo(second)).toEqual([]);
      expect(await capEmails()).toBe(1);
      const [alert] = await db().select().from(emailOutbox).where(eq(emailOutbox.purpose, "text_back_cap"));
      expect(alert).toMatchObject({ toAddress: "leads@operator.example" });
      expect(alert!.subject).toBe("Missed-call text-backs paused: 30 in the last hour");
      expect(alert!.textBody).not.toContain(first);

      // An hour on, the earlier text-backs no longer count: the next missed call gets its text.
      await db()
        .update(textBacks)
        .set({ queuedAt: sql`now() - interval '61 minutes'` })
        .where(
          inArray(
            textBacks.number,
            earlier.map((row) => row.number),
          ),
        );
      await missedCall(first);
      await waitUntil(() => textsTo(first).length === 1);
      expect(await capEmails()).toBe(1);
    } finally {
      await db()
        .delete(textBacks)
        .where(
          inArray(
            textBacks.number,
            earlier.map((row) => row.number),
          ),
        );
    }
  });
});

describe("delivery states", () => {
  test("a text goes from queued to sent to delivered by Twilio's signed status callbacks, never back", async () => {
    const customer = newCustomer();
    await texts().send({ customer, body: "Plumber arrives at 10.", confirmedQuietHours: false });
    await waitUntil(() => textsTo(customer).length === 1);
    const sent = textsTo(customer)[0]!;
    expect(sent.statusCallback).toMatch(new RegExp(`^${SITE_URL}/api/sms/status\\?text=[0-9a-f-]{36}$`));
    const status = async (MessageStatus: string) =>
      (
        await postWebhook(running.url, SITE_URL, sent.statusCallback!.slice(SITE_URL.length), {
          MessageSid: sent.sid,
          MessageStatus,
          AccountSid: TEST_ACCOUNT_SID,
        })
      ).status;
    const shown = async () => (await customerThread(db(), customer, "UTC")).texts[0]!.status;
    await waitUntil(async () => (await shown()) === "sent");
    expect(await status("delivered")).toBe(204);
    expect(await shown()).toBe("delivered");
    expect(await status("sent")).toBe(204);
    expect(await shown()).toBe("delivered");

    // Unsigned, the callback changes nothing.
    const unsigned = await fetch(`${running.url}${sent.statusCallback!.slice(SITE_URL.length)}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ MessageSid: sent.sid, MessageStatus: "failed" }),
    });
    expect(unsigned.status).toBe(403);
    expect(await shown()).toBe("delivered");
  });

  test("the texts appear in the leads CSV as a count only", async () => {
    const customer = newCustomer();
    const answer = await postJson(running.url, { ...validContact, phone: customer.slice(2) });
    expect(answer.status).toBe(200);
    const untexted = await postJson(running.url, { ...validContact, phone: newCustomer().slice(2) });
    expect(untexted.status).toBe(200);
    await textIn(customer, "My basement is flooding");
    await texts().send({ customer, body: "On our way", confirmedQuietHours: false });
    await waitUntil(() => textsTo(customer).length === 1);
    const download = await fetch(`${running.url}/admin/export/leads.csv`, { headers: { Cookie: await signedIn() } });
    expect(download.status).toBe(200);
    const [header, ...rows] = (await download.text()).trim().split("\r\n");
    expect(header!.split(",").at(-1)).toBe("texts");
    const row = rows.find((line) => line.startsWith(answer.body.id as string))!;
    expect(row.split(",").at(-1)).toBe("2");
    expect(row).not.toContain("flooding");
    const untextedRow = rows.find((line) => line.startsWith(untexted.body.id as string))!;
    expect(untextedRow.split(",").at(-1)).toBe("0");
  });
});

describe("threads and leads", () => {
  test("a thread whose number belongs to a lead is shown by the lead's name, on the list and on the thread", async () => {
    const customer = newCustomer();
    expect((await postJson(running.url, { ...validContact, phone: customer.slice(2) })).status).toBe(200);
    const stranger = newCustomer();
    await textIn(customer, "Is the plumber coming?");
    await textIn(stranger, "Hello");
    const cookie = await signedIn();
    const name = `${validContact.firstName} ${validContact.lastName}`;
    const list = await (await fetch(`${running.url}/admin/texts`, { headers: { Cookie: cookie } })).text();
    expect(list).toContain(`>${name} (${customer})</a>`);
    expect(list).toContain(`>${stranger}</a>`);
    const thread = await (
      await fetch(`${running.url}/admin/texts/${customer.slice(1)}`, { headers: { Cookie: cookie } })
    ).text();
    expect(thread).toContain(`<title>Texts with ${name}</title>`);
    expect(thread).toContain(`${name} (${customer})</h1>`);
  });
});

describe("New text on the Texts page", () => {
  /** The Texts page's "New text" form, sent with the one-time key of one page view (given, or a fresh view's). */
  async function newTextKey(cookie: string): Promise<string> {
    const page = await (await fetch(`${running.url}/admin/texts`, { headers: { Cookie: cookie } })).text();
    return /name="intent" value="new-text"\/><input type="hidden" name="formKey" value="([^"]+)"/.exec(page)![1]!;
  }
  const sendNewText = (cookie: string, formKey: string, fields: Record<string, string>) =>
    fetch(`${running.url}/admin/texts`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: running.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "new-text", formKey, ...fields }),
      redirect: "manual",
    });
  /** Every text stored for the number, either direction. */
  const storedFor = (customer: string) => db().select().from(textMessages).where(eq(textMessages.customer, customer));

  test("sends one text once, however often the form is sent, and leads to the number's thread saying so", async () => {
    const customer = newCustomer();
    const national = customer.slice(2);
    expect((await postJson(running.url, { ...validContact, phone: national })).status).toBe(200);
    const cookie = await signedIn();
    const formKey = await newTextKey(cookie);
    const typed = {
      to: `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`,
      body: "Hi, a plumber can come at 10.",
    };
    // A double click (both at once), then the browser sending it again (a reload of the answer).
    const answers = await Promise.all([sendNewText(cookie, formKey, typed), sendNewText(cookie, formKey, typed)]);
    answers.push(await sendNewText(cookie, formKey, typed));
    for (const answer of answers) {
      expect(answer.status).toBe(303);
      expect(answer.headers.get("Location")).toBe(`/admin/texts/${customer.slice(1)}`);
    }
    await waitUntil(() => textsTo(customer).length === 1);
    await outboxSettles();
    expect(textsTo(customer)).toHaveLength(1);
    expect(textsTo(customer)[0]).toMatchObject({ body: "Hi, a plumber can come at 10.", from: FROM_NUMBER });
    expect(await storedFor(customer)).toHaveLength(1);

    // The thread says what was done, once, and follows the text through Twilio's signed status callback.
    const flash = answers[0]!.headers.get("Set-Cookie")!.split(";")[0]!;
    const thread = await fetch(`${running.url}/admin/texts/${customer.slice(1)}`, {
      headers: { Cookie: `${cookie}; ${flash}` },
    });
    const name = `${validContact.firstName} ${validContact.lastName}`;
    expect(await thread.text()).toContain(`Text sent to ${name} (${customer}).`);
    const sent = textsTo(customer)[0]!;
    const callback = await postWebhook(running.url, SITE_URL, sent.statusCallback!.slice(SITE_URL.length), {
      MessageSid: sent.sid,
      MessageStatus: "delivered",
      AccountSid: TEST_ACCOUNT_SID,
    });
    expect(callback.status).toBe(204);
    expect((await customerThread(db(), customer, "UTC")).texts.map((text) => [text.body, text.status])).toEqual([
      ["Hi, a plumber can come at 10.", "delivered"],
    ]);

    // A new text to a number with a thread goes on that thread, from the number it was texting from.
    await textIn(customer, "Thanks, see you then");
    const again = await sendNewText(cookie, await newTextKey(cookie), { to: customer, body: "On our way." });
    expect(again.headers.get("Location")).toBe(`/admin/texts/${customer.slice(1)}`);
    await waitUntil(() => textsTo(customer).length === 2);
    expect(textsTo(customer)[1]).toMatchObject({ body: "On our way.", from: POOL_NUMBER });
  });

  test("is refused for a number that replied STOP: 409, the reason beside the number, nothing sent", async () => {
    const customer = newCustomer();
    await textIn(customer, "STOP");
    const cookie = await signedIn();
    const answer = await sendNewText(cookie, await newTextKey(cookie), { to: customer, body: "Are you still there?" });
    expect(answer.status).toBe(409);
    const page = await answer.text();
    expect(page).toContain("This number replied STOP: it gets no texts until it replies START.");
    // What was typed is still there, to change.
    expect(page).toContain("Are you still there?</textarea>");
    await outboxSettles();
    expect(textsTo(customer)).toEqual([]);
    expect((await storedFor(customer)).map((text) => text.direction)).toEqual(["in"]);
  });

  test("is refused with 400 for a number that cannot be texted or a message empty or too long: nothing sent", async () => {
    const cookie = await signedIn();
    const customer = newCustomer();
    const before = twilio.texts.length;
    const refused: [Record<string, string>, string][] = [
      [{ to: "555-0100", body: "Hello" }, "Enter a phone number that can get texts"],
      [{ to: "call me 415 201 0000", body: "Hello" }, "Enter a phone number that can get texts"],
      [{ to: `+1 ${"4".repeat(30)}`, body: "Hello" }, "Enter a phone number that can get texts"],
      [{ to: "", body: "Hello" }, "Enter a phone number that can get texts"],
      [{ to: customer, body: "   " }, "Write a message of 1 to 1,600 characters."],
      [{ to: customer, body: "x".repeat(1_601) }, "Write a message of 1 to 1,600 characters."],
    ];
    for (const [fields, error] of refused) {
      const answer = await sendNewText(cookie, await newTextKey(cookie), fields);
      expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      expect(await answer.text()).toContain(error);
    }
    // A form without its one-time key does nothing either.
    expect((await sendNewText(cookie, "", { to: customer, body: "Hello" })).status).toBe(400);
    await outboxSettles();
    expect(twilio.texts).toHaveLength(before);
    expect(await storedFor(customer)).toEqual([]);
  });

  test("in quiet hours asks first, sends nothing until the operator says yes, and then sends one", async () => {
    const quiet = await startServer(
      testEnv({ ...twilioEnv(twilio), TEXT_QUIET_HOURS: "on", OPERATOR_TIME_ZONE: zoneAtTwoInTheMorning() }),
    );
    try {
      await saveOperator(quiet.services.db, "quiet@operator.example", "correct horse battery staple");
      const session = await quiet.services.consoleAuth.signIn(
        { email: "quiet@operator.example", password: "correct horse battery staple" },
        "192.0.2.204",
      );
      if (session.outcome !== "signed-in") throw new Error("sign-in failed");
      const cookie = session.setCookie.split(";")[0]!;
      const page = await (await fetch(`${quiet.url}/admin/texts`, { headers: { Cookie: cookie } })).text();
      const formKey = /name="intent" value="new-text"\/><input type="hidden" name="formKey" value="([^"]+)"/.exec(
        page,
      )![1]!;
      const customer = newCustomer();
      const send = (extra: Record<string, string> = {}) =>
        fetch(`${quiet.url}/admin/texts`, {
          method: "POST",
          headers: { Cookie: cookie, Origin: quiet.url, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            intent: "new-text",
            formKey,
            to: customer,
            body: "Late, but: we come at 8.",
            ...extra,
          }),
          redirect: "manual",
        });
      const question = await send();
      expect(question.status).toBe(200);
      const asked = await question.text();
      expect(asked).toContain(
        `It is quiet hours (21:00–08:00) where your customers are. Send this text to ${customer} now anyway?`,
      );
      expect(asked).toContain("Yes, send it now");
      await outboxSettles();
      expect(textsTo(customer)).toEqual([]);
      const yes = await send({ confirmed: "yes" });
      expect(yes.status).toBe(303);
      expect(yes.headers.get("Location")).toBe(`/admin/texts/${customer.slice(1)}`);
      expect((await send({ confirmed: "yes" })).status).toBe(303);
      await waitUntil(() => textsTo(customer).length === 1);
      await outboxSettles();
      expect(textsTo(customer).map((text) => text.body)).toEqual(["Late, but: we come at 8."]);
    } finally {
      await quiet.close();
    }
  });

  test("a lead's page links to it with the lead's number in it", async () => {
    const customer = newCustomer();
    const { body } = await postJson(running.url, { ...validContact, phone: `1-${customer.slice(2)}` });
    const id = body.id as string;
    const cookie = await signedIn();
    const lead = await (await fetch(`${running.url}/admin/leads/${id}`, { headers: { Cookie: cookie } })).text();
    const link = `/admin/texts?to=${encodeURIComponent(customer)}#new-text-heading`;
    expect(lead).toContain(`href="${link}"`);
    expect(lead).toMatch(/>Text this customer<\/a>/);
    const page = await (await fetch(`${running.url}${link}`, { headers: { Cookie: cookie } })).text();
    expect(page).toMatch(new RegExp(`name="to"[^>]*value="\\${customer}"`));
  });
});

describe("retention", () => {
  test("texts older than a year are deleted with the calls and leads; newer ones stay", async () => {
    const customer = newCustomer();
    await textIn(customer, "Old news");
    await textIn(customer, "Still relevant");
    await db()
      .update(textMessages)
      .set({ createdAt: sql`now() - interval '366 days'` })
      .where(sql`${textMessages.customer} = ${customer} AND ${textMessages.body} = 'Old news'`);
    expect(await purgeExpiredTexts(running.services.run)).toBeGreaterThanOrEqual(1);
    expect((await customerThread(db(), customer, "UTC")).texts.map((text) => text.body)).toEqual(["Still relevant"]);
  });
});

/** A zone whose wall clock reads 02:xx now (Etc/GMT zones are named with the sign reversed). */
function zoneAtTwoInTheMorning(): string {
  const offset = ((2 - new Date().getUTCHours() + 36) % 24) - 12;
  return offset === 0 ? "Etc/UTC" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
}

describe("quiet hours", () => {
  test("hold automatic texts until 08:00 and release them then; a text by hand asks for confirmation", async () => {
    const timeZone = zoneAtTwoInTheMorning();
    const quiet = createTexts({
      db: db(),
      run: running.services.run,
      fromNumber: FROM_NUMBER,
      companyName: COMPANY,
      phoneDisplay: "1-800-555-0199",
      timeZone,
      quietHours: true,
      missedCallText: true,
      textBackCap: { perHour: 30, alertTo: "leads@operator.example", siteUrl: SITE_URL, messageIdDomain: "example" },
      numberCalledBy: async () => null,
      onReceived: () => undefined,
      onQueued: () => running.services.outbox.nudge("texts"),
    });
    const customer = newCustomer();
    await quiet.textBack({ caller: customer, called: POOL_NUMBER, callerVerification: null });
    const [held] = await db().select().from(textMessages).where(eq(textMessages.customer, customer));
    // Between 02:00 and 03:00 now, so 08:00 is five to six hours on.
    const wait = held!.nextAttemptAt.getTime() - Date.now();
    expect(wait).toBeGreaterThan(5 * 3_600_000 - 60_000);
    expect(wait).toBeLessThanOrEqual(6 * 3_600_000);
    expect(new Date(held!.nextAttemptAt).getUTCMinutes()).toBe(0);
    await outboxSettles();
    expect(textsTo(customer)).toEqual([]);

    expect(await quiet.send({ customer, body: "Are you awake?", confirmedQuietHours: false })).toEqual({
      kind: "quiet-hours",
    });
    expect(await quiet.send({ customer, body: "We are on our way now.", confirmedQuietHours: true })).toEqual({
      kind: "queued",
    });
    await waitUntil(() => textsTo(customer).length === 1);
    expect(textsTo(customer)[0]!.body).toBe("We are on our way now.");

    // 08:00 comes: the held text-back goes.
    await db()
      .update(textMessages)
      .set({ nextAttemptAt: sql`now()` })
      .where(isNull(textMessages.sentAt));
    running.services.outbox.nudge("texts");
    await waitUntil(() => textsTo(customer).length === 2);
    expect(textsTo(customer)[1]!.body).toContain(COMPANY);
  });
});

describe("without a Twilio number to text from", () => {
  let plain: RunningServer;
  beforeAll(async () => {
    plain = await startServer(testEnv({}));
  });
  afterAll(() => plain?.close());

  test("the console's Texts page says how to turn texts on, with no link to it, and no texting webhooks", async () => {
    await saveOperator(plain.services.db, "plain@operator.example", "correct horse battery staple");
    const session = await plain.services.consoleAuth.signIn(
      { email: "plain@operator.example", password: "correct horse battery staple" },
      "192.0.2.203",
    );
    if (session.outcome !== "signed-in") throw new Error("sign-in failed");
    const cookie = session.setCookie.split(";")[0]!;
    expect(plain.services.texts).toBeUndefined();
    const textsPage = await fetch(`${plain.url}/admin/texts`, { headers: { Cookie: cookie } });
    expect(textsPage.status).toBe(200);
    const textsHtml = await textsPage.text();
    expect(textsHtml).toContain("Texting with customers is off");
    expect(textsHtml).toContain("TWILIO_FROM_NUMBER");
    expect(textsHtml).toContain("Sign out");
    // Nothing offers to text anyone.
    expect(textsHtml).not.toContain("New text");
    const id = (await postJson(plain.url, validContact)).body.id as string;
    const leadPage = await (await fetch(`${plain.url}/admin/leads/${id}`, { headers: { Cookie: cookie } })).text();
    expect(leadPage).toContain(validContact.lastName);
    expect(leadPage).not.toContain("Text this customer");
    const newText = await fetch(`${plain.url}/admin/texts`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: plain.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "new-text", to: "+14152010000", body: "Hello" }),
    });
    expect(newText.status).toBe(404);
    const save = await fetch(`${plain.url}/admin/texts`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: plain.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ message: "Anything" }),
    });
    expect(save.status).toBe(404);
    expect(await (await fetch(`${plain.url}/admin`, { headers: { Cookie: cookie } })).text()).not.toContain(
      'href="/admin/texts"',
    );
    const csv = await (await fetch(`${plain.url}/admin/export/leads.csv`, { headers: { Cookie: cookie } })).text();
    expect(csv.split("\r\n")[0]).not.toContain("texts");
  });
});

describe("a crash between queueing a text and sending it", () => {
  let dir: string;
  let server: ServerProcess | undefined;
  let standIn: TwilioStandIn;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "plumbline-texts-crash-"));
    standIn = await startTwilioStandIn();
  });
  afterAll(async () => {
    await server?.kill("SIGKILL");
    await standIn.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test("sends the text once after the restart", { timeout: 120_000 }, async () => {
    const env = {
      ...twilioEnv(standIn),
      PORT: String(await freePort()),
      PGLITE_DATA_DIR: join(dir, "pglite"),
      OUTBOX_DIR: join(dir, "outbox"),
      OUTBOX_POLL_MS: "100",
      OUTBOX_RETRY_BASE_MS: "100",
      OUTBOX_RETRY_MAX_MS: "200",
      TEXT_QUIET_HOURS: "off",
      LEADS_EMAIL_TO: "leads@operator.example",
    };
    const customer = "+14152188001";
    // Twilio is unreachable: the text-back is queued with the missed call and waits in the outbox.
    standIn.down = true;
    await makeMigratedFolder(env.PGLITE_DATA_DIR);
    server = await startServerProcess(env);
    await missedCall(customer, server.url);
    await server.kill("SIGKILL");

    const database = await openDatabase({ pgliteDataDir: env.PGLITE_DATA_DIR });
    try {
      const queued = await database.db.select().from(textMessages).where(eq(textMessages.customer, customer));
      expect(queued.map((text) => [text.purpose, text.sentAt])).toEqual([["missed_call_text_back", null]]);
      // A text the killed process had claimed stays leased until its lease ends (minutes); the test moves the
      // lease to now instead of waiting.
      await database.db
        .update(textMessages)
        .set({ nextAttemptAt: sql`now()` })
        .where(isNull(textMessages.sentAt));
    } finally {
      await database.close();
    }

    standIn.down = false;
    server = await startServerProcess(env);
    await waitUntil(() => standIn.texts.length === 1, 30_000);
    await outboxSettles();
    expect(standIn.texts.map((text) => text.to)).toEqual([customer]);
    await server.kill("SIGTERM");
    expect(server.output()).not.toContain(customer);
    server = undefined;
  });
});
