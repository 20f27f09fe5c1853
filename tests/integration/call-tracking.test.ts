import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { calls, numberHolds } from "../../app/server/calls/schema.server.ts";
import { purgeExpiredCalls } from "../../app/server/calls/retention.server.ts";
import { dashboardData } from "../../app/server/analytics/dashboard.server.ts";
import { emailOutbox, outboxMessages } from "../../app/server/outbox/schema.server.ts";
import {
  postWebhook,
  RECORDING_AUDIO,
  sid,
  startTwilioStandIn,
  TEST_ACCOUNT_SID,
  TEST_AUTH_TOKEN,
  type TwilioStandIn,
} from "../twilio-stand-in.ts";
import { saveOperator } from "../../app/server/console/operators.server.ts";
import { postJson, startSmtpPeer, testEnv, waitUntil, type SmtpPeer } from "../../tooling/local-services.ts";
import { callsCsv, callsFromPhone, listCalls, poolExhaustion } from "../../app/server/calls/index.server.ts";

/** Call tracking end to end on the server: tracking numbers for campaign visits, Twilio's webhooks, retention. */

const SITE_URL = "https://plumbline.example";
const FORWARD_TO = "+15550100200";
const SITE_NUMBER = "+18005550199";
const POOL = ["+18005550101", "+18005550102"];
const CALLER = "+15550199123";

let running: RunningServer;
let twilio: TwilioStandIn;
let smtp: SmtpPeer;

beforeAll(async () => {
  [twilio, smtp] = await Promise.all([startTwilioStandIn(), startSmtpPeer()]);
  running = await startServer(
    testEnv({
      SITE_URL,
      SMTP_URL: smtp.url,
      TWILIO_ACCOUNT_SID: TEST_ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: TEST_AUTH_TOKEN,
      TWILIO_API_URL: twilio.apiUrl,
      CALL_FORWARD_TO: FORWARD_TO,
      CALL_TRACKING_POOL: POOL.join(","),
      CALL_RECORDING: "on",
      PHONE_E164: SITE_NUMBER,
      PHONE_DISPLAY: "1-800-555-0199",
      POST_RATE_LIMIT_PER_MINUTE: "3",
      TRUST_PROXY: "1",
    }),
  );
});

afterAll(async () => {
  await running.close();
  await Promise.all([twilio.stop(), smtp.stop()]);
});

const db = () => running.services.db;
const callRow = async (callSid: string) => (await db().select().from(calls).where(eq(calls.callSid, callSid)))[0];
const freeThePool = () => db().delete(numberHolds);

let address = 0;
/** Each request from its own address, so that only the test of the POST limit meets it. */
const fromAnotherAddress = () => ({ "X-Forwarded-For": `192.0.2.${++address % 250}` });

/** The page's request for a tracking number, as the inline script sends it. */
async function askForNumber(
  visit: Record<string, string>,
  options: { hold?: string; gpc?: boolean; from?: string } = {},
) {
  const response = await fetch(`${running.url}/api/calls/number`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: running.url,
      ...(options.from ? { "X-Forwarded-For": options.from } : fromAnotherAddress()),
      ...(options.gpc ? { "Sec-GPC": "1" } : {}),
    },
    body: JSON.stringify({ ...(options.hold ? { hold: options.hold } : {}), visit }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

const campaignVisit = {
  landing_path: "/drain-services",
  utm_source: "google",
  utm_medium: "cpc",
  utm_campaign: "drains-fall",
  gclid: "Cj0KCQ-test",
};

const incomingCall = (callSid: string, to: string) =>
  postWebhook(running.url, SITE_URL, "/api/calls/voice", {
    AccountSid: TEST_ACCOUNT_SID,
    CallSid: callSid,
    From: CALLER,
    To: to,
    CallStatus: "ringing",
    Direction: "inbound",
  });

const dialEnded = (callSid: string, dialCallStatus: string, duration?: string) =>
  postWebhook(running.url, SITE_URL, "/api/calls/status", {
    AccountSid: TEST_ACCOUNT_SID,
    CallSid: callSid,
    CallStatus: "in-progress",
    DialCallStatus: dialCallStatus,
    ...(duration ? { DialCallDuration: duration } : {}),
  });

describe("without Twilio settings", () => {
  test("the call endpoints do not exist", async () => {
    const plain = await startServer(testEnv({ SITE_URL }));
    try {
      for (const path of ["/api/calls/voice", "/api/calls/status", "/api/calls/recording", "/api/calls/number"]) {
        const response = await fetch(`${plain.url}${path}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: "{}",
        });
        expect(response.status).toBe(404);
      }
      expect(plain.services.calls).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});

describe("Twilio's webhooks", () => {
  test("an unsigned or wrongly signed webhook gets 403 and nothing is stored", async () => {
    const callSid = sid("CA");
    const params = { CallSid: callSid, From: CALLER, To: POOL[0]!, CallStatus: "ringing" };
    const unsigned = await fetch(`${running.url}/api/calls/voice`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params).toString(),
    });
    expect(unsigned.status).toBe(403);
    const otherToken = await postWebhook(
      running.url,
      SITE_URL,
      "/api/calls/voice",
      params,
      "not-the-auth-token-at-all",
    );
    expect(otherToken.status).toBe(403);
    const otherUrl = await postWebhook(running.url, "https://elsewhere.example", "/api/calls/voice", params);
    expect(otherUrl.status).toBe(403);
    expect(await callRow(callSid)).toBeUndefined();
  });

  test("signed webhooks are not held to the per-minute POST limit; unsigned ones are", async () => {
    for (let index = 0; index < 5; index++) {
      expect((await incomingCall(sid("CA"), SITE_NUMBER)).status).toBe(200);
    }
    const statuses = [];
    for (let index = 0; index < 5; index++) {
      const response = await fetch(`${running.url}/api/calls/voice`, {
        method: "POST",
        headers: { "X-Forwarded-For": "198.51.100.7" },
        body: "CallSid=x",
      });
      statuses.push(response.status);
    }
    expect(statuses).toContain(429);
  });
});

describe("tracking numbers and calls", () => {
  test("a campaign visit gets a pool number; a call to it is tied to the visit's campaign and gclid", async () => {
    await freeThePool();
    const given = await askForNumber(campaignVisit);
    expect(given.status).toBe(200);
    expect(POOL).toContain(given.body.e164);
    expect(given.body.display).toBe(`1-800-555-${given.body.e164!.slice(-4)}`);

    const callSid = sid("CA");
    const voice = await incomingCall(callSid, given.body.e164!);
    expect(voice.status).toBe(200);
    expect(voice.headers.get("content-type")).toContain("text/xml");
    const twiml = await voice.text();
    expect(twiml).toContain("<Say>This call may be recorded for quality.</Say>");
    expect(twiml).toMatch(/<Dial timeout="20" action="https:\/\/plumbline\.example\/api\/calls\/status"/);
    expect(twiml).toContain('record="record-from-answer-dual"');
    expect(twiml).toContain(`<Number>${FORWARD_TO}</Number>`);

    const answered = await dialEnded(callSid, "completed", "95");
    expect(await answered.text()).toContain("<Hangup/>");
    expect(await callRow(callSid)).toMatchObject({
      status: "answered",
      durationSeconds: 95,
      line: "pool",
      caller: CALLER,
      utmSource: "google",
      utmCampaign: "drains-fall",
      gclid: "Cj0KCQ-test",
      landingPath: "/drain-services",
    });
  });

  test("the visit keeps its number on later pages; under Global Privacy Control no click id is kept", async () => {
    await freeThePool();
    const first = await askForNumber(campaignVisit, { gpc: true });
    const again = await askForNumber(campaignVisit, { hold: first.body.hold!, gpc: true });
    expect(again.body).toEqual(first.body);
    const [hold] = await db().select().from(numberHolds).where(eq(numberHolds.number, first.body.e164!));
    expect(hold).toMatchObject({ utmCampaign: "drains-fall", gclid: null });
  });

  test("a visit without a campaign, and a visit when the pool is used up, get no number (the default shows)", async () => {
    await freeThePool();
    expect((await askForNumber({ landing_path: "/" })).body).toEqual({});
    const taken = [
      await askForNumber(campaignVisit),
      await askForNumber({ ...campaignVisit, utm_campaign: "heaters-fall" }),
    ];
    expect(new Set(taken.map((answer) => answer.body.e164))).toEqual(new Set(POOL));
    const before = await poolExhaustion(db());
    expect((await askForNumber({ ...campaignVisit, utm_campaign: "toilets-fall" })).body).toEqual({});
    expect((await poolExhaustion(db())).visits).toBe(before.visits + 1);
  });

  test("one client holds at most a tenth of the pool: made-up campaigns from one address leave the rest to others", async () => {
    await freeThePool();
    // Three requests from each address: the per-minute POST limit here is 3.
    const attacker = "203.0.113.66";
    const first = await askForNumber({ utm_campaign: "made-up-1" }, { from: attacker });
    expect(first.body.e164).toBeDefined();
    for (const campaign of ["made-up-2", "made-up-3"]) {
      expect((await askForNumber({ utm_campaign: campaign }, { from: attacker })).body).toEqual({});
    }
    // An IPv6 client is one /64: another address in the same network is the same client.
    const v6 = await askForNumber({ utm_campaign: "made-up-4" }, { from: "2001:db8:1:2::10" });
    expect(v6.body.e164).toBeDefined();
    expect((await askForNumber({ utm_campaign: "made-up-5" }, { from: "2001:db8:1:2::99" })).body).toEqual({});
    await db().delete(numberHolds).where(eq(numberHolds.holdId, v6.body.hold!));
    // A real visitor elsewhere still gets the number left.
    const visitor = await askForNumber(campaignVisit);
    expect(visitor.body.e164).toBeDefined();
    expect(visitor.body.e164).not.toBe(first.body.e164);
  });

  test("one campaign value holds at most half the pool, whichever clients ask", async () => {
    await freeThePool();
    const invented = { utm_source: "x", utm_campaign: "Leak. URGENT" };
    expect((await askForNumber(invented)).body.e164).toBeDefined();
    expect((await askForNumber({ ...invented, utm_campaign: "leak. urgent" })).body).toEqual({});
    expect((await askForNumber(campaignVisit)).body.e164).toBeDefined();
  });

  test("the Calls page says when campaign visits found the pool used up", async () => {
    await saveOperator(db(), "pool@operator.example", "correct horse battery staple");
    const signedIn = await running.services.consoleAuth.signIn(
      { email: "pool@operator.example", password: "correct horse battery staple" },
      "192.0.2.201",
    );
    if (signedIn.outcome !== "signed-in") throw new Error("sign-in failed");
    const page = await fetch(`${running.url}/admin/calls`, { headers: { Cookie: signedIn.setCookie.split(";")[0]! } });
    expect(await page.text()).toMatch(/campaign visits? found every tracking number held/);
  });

  test("bad requests for a number get 400 and hold nothing", async () => {
    await freeThePool();
    for (const body of ['{"visit":{"utm_source":1}}', '{"visit":{"evil":"x"}}', "[]", '{"hold":"nope","visit":{}}']) {
      const response = await fetch(`${running.url}/api/calls/number`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: running.url, ...fromAnotherAddress() },
        body,
      });
      expect(response.status).toBe(400);
    }
    expect(await db().select().from(numberHolds)).toEqual([]);
  });

  test("when the hold ends the number is free again, and a call to it is pool, unattributed", async () => {
    await freeThePool();
    const first = await askForNumber(campaignVisit);
    await askForNumber({ ...campaignVisit, utm_campaign: "other" });
    // Both numbers held; the first visit's hold runs out.
    await db()
      .update(numberHolds)
      .set({ heldUntil: sql`now() - interval '1 second'` })
      .where(eq(numberHolds.holdId, first.body.hold!));

    const callSid = sid("CA");
    await incomingCall(callSid, first.body.e164!);
    expect(await callRow(callSid)).toMatchObject({ line: "pool", utmCampaign: null, gclid: null, landingPath: null });
    const [listed] = (await listCalls(db(), { q: "", outcome: "" }, "UTC", "USD")).rows;
    expect(listed).toMatchObject({ called: first.body.e164, lineLabel: "Pool, unattributed", campaign: null });

    const next = await askForNumber({ ...campaignVisit, utm_campaign: "third" });
    expect(next.body.e164).toBe(first.body.e164);
    expect(next.body.hold).not.toBe(first.body.hold);
  });

  test("a call to the site's own number is an unattributed website call", async () => {
    const callSid = sid("CA");
    await incomingCall(callSid, SITE_NUMBER);
    expect(await callRow(callSid)).toMatchObject({ line: "website", status: "ringing", utmSource: null });
  });

  test("no answer: voicemail is offered, the call is Missed and the operator gets one email; repeats change nothing", async () => {
    await freeThePool();
    const given = await askForNumber(campaignVisit);
    const callSid = sid("CA");
    await incomingCall(callSid, given.body.e164!);
    await incomingCall(callSid, given.body.e164!);

    const missed = await dialEnded(callSid, "no-answer");
    const twiml = await missed.text();
    expect(twiml).toContain('<Record maxLength="120"');
    expect(twiml).toContain("<Say>");
    expect(await callRow(callSid)).toMatchObject({ status: "no-answer", durationSeconds: null });
    await waitUntil(() => smtp.received.some((mail) => mail.subject.startsWith("Missed call")));
    const mail = smtp.received.find((received) => received.subject.startsWith("Missed call"))!;
    expect(mail.envelopeTo).toEqual(["leads@operator.example"]);
    // The campaign is text a visitor chose: it is in the body, never the subject.
    expect(mail.subject).toBe(`Missed call from ${CALLER}`);
    expect(mail.text).toContain("utm_campaign: drains-fall");

    // Twilio retries: the same callback again changes nothing and sends no second email.
    const before = await callRow(callSid);
    await dialEnded(callSid, "no-answer");
    await dialEnded(callSid, "completed", "30");
    expect(await callRow(callSid)).toEqual(before);

    const recordingSid = sid("RE");
    const left = await postWebhook(running.url, SITE_URL, "/api/calls/status", {
      CallSid: callSid,
      RecordingSid: recordingSid,
      RecordingDuration: "14",
      RecordingUrl: `https://api.twilio.com/2010-04-01/Accounts/${TEST_ACCOUNT_SID}/Recordings/${recordingSid}`,
    });
    expect(await left.text()).toContain("<Hangup/>");
    const ready = await postWebhook(running.url, SITE_URL, "/api/calls/recording", {
      CallSid: callSid,
      RecordingSid: recordingSid,
      RecordingDuration: "14",
      RecordingStatus: "completed",
    });
    expect(ready.status).toBe(204);
    expect(await callRow(callSid)).toMatchObject({
      status: "voicemail",
      durationSeconds: 14,
      recordingSid,
      recordingSeconds: 14,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter((received) => received.subject.startsWith("Missed call"))).toHaveLength(1);
  });
});

describe("the console's calls", () => {
  test("a call links to the lead with the caller's phone, a lead lists its calls, and the CSV is formula-safe", async () => {
    const lead = await postJson(
      running.url,
      {
        firstName: "Ada",
        lastName: "Caller",
        email: "ada@example.com",
        phone: "(555) 019-9123",
        service: "Leak",
        message: "Call me",
      },
      fromAnotherAddress(),
    );
    expect(lead.status).toBe(200);

    const page = await listCalls(db(), { q: "019 9123", outcome: "Answered" }, "America/New_York", "USD");
    expect(page.rows.length).toBeGreaterThan(0);
    for (const row of page.rows)
      expect(row).toMatchObject({ caller: CALLER, outcome: "Answered", leadId: lead.body.id });
    const answered = page.rows.find((row) => row.campaign === "drains-fall")!;
    expect(answered).toMatchObject({
      source: "google",
      medium: "cpc",
      durationSeconds: 95,
      lineLabel: "Pool",
    });

    const missed = await listCalls(db(), { q: "", outcome: "Voicemail" }, "America/New_York", "USD");
    expect(missed.rows.map((row) => row.outcome)).toEqual(missed.rows.map(() => "Voicemail"));
    expect(missed.total).toBeGreaterThan(0);
    // A search's matches are counted to 1,000, a filter's rows to 10,000.
    expect(page.countLimit).toBe(1_000);
    expect(missed.countLimit).toBe(10_000);

    const fromLead = await callsFromPhone(db(), "(555) 019-9123", "America/New_York");
    expect(fromLead.map((row) => row.caller)).toEqual(fromLead.map(() => CALLER));
    expect(fromLead.length).toBeGreaterThanOrEqual(page.total);

    let csv = "";
    for await (const chunk of callsCsv(db())) csv += chunk;
    const [header, ...lines] = csv.trimEnd().split("\r\n");
    expect(header).toMatch(/^id,started_at,caller,called,line,outcome,status,duration_seconds,recording,landing_path/);
    // A number starting with "+" would be run as a formula by a spreadsheet: it is kept as text.
    expect(lines.some((line) => line.includes(`,'${CALLER},`))).toBe(true);
    expect(lines.some((line) => line.includes("drains-fall"))).toBe(true);
  });

  test("a caller who hangs up before the forwarded call ends is a missed call (the number's own status callback)", async () => {
    const callSid = sid("CA");
    await incomingCall(callSid, SITE_NUMBER);
    const ended = await postWebhook(running.url, SITE_URL, "/api/calls/status", {
      CallSid: callSid,
      CallStatus: "completed",
      CallDuration: "4",
    });
    expect(ended.status).toBe(200);
    expect(await callRow(callSid)).toMatchObject({ status: "canceled" });
    await waitUntil(() => smtp.received.filter((mail) => mail.subject.startsWith("Missed call")).length === 2);
  });
});

describe("the dashboard", () => {
  test("counts answered and missed calls by landing page and by source and campaign", async () => {
    const { phoneCalls } = await dashboardData(db(), 7, "America/New_York");
    const drains = phoneCalls.byPage.find((row) => row.path === "/drain-services");
    // Above: one answered call and one missed (then voicemail) call from the drains-fall visits.
    expect(drains).toEqual({ path: "/drain-services", answered: 1, missed: 1 });
    expect(phoneCalls.bySource).toContainEqual({
      source: "google",
      medium: "cpc",
      campaign: "drains-fall",
      answered: 1,
      missed: 1,
    });
    expect(phoneCalls.totals.answered).toBeGreaterThanOrEqual(1);
    expect(phoneCalls.days.at(-1)!.missed).toBeGreaterThanOrEqual(1);
  });
});

describe("recordings", () => {
  test("a recording plays from the console behind sign-in, streamed from Twilio; signed out, it redirects to sign-in", async () => {
    const [recorded] = await db().select().from(calls).where(eq(calls.status, "voicemail"));
    const [unrecorded] = await db().select().from(calls).where(eq(calls.line, "website"));
    const path = `/admin/calls/${recorded!.id}/recording`;

    const signedOut = await fetch(`${running.url}${path}`, { redirect: "manual" });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("location")).toMatch(/^\/admin\/login\?next=/);

    await saveOperator(db(), "calls@operator.example", "correct horse battery staple");
    const signedIn = await running.services.consoleAuth.signIn(
      { email: "calls@operator.example", password: "correct horse battery staple" },
      "192.0.2.200",
    );
    if (signedIn.outcome !== "signed-in") throw new Error("sign-in failed");
    const cookie = signedIn.setCookie.split(";")[0]!;
    const audio = await fetch(`${running.url}${path}`, { headers: { Cookie: cookie } });
    expect(audio.status).toBe(200);
    expect(audio.headers.get("content-type")).toBe("audio/mpeg");
    expect(audio.headers.get("cache-control")).toBe("no-store");
    expect(Buffer.from(await audio.arrayBuffer())).toEqual(RECORDING_AUDIO);

    const none = await fetch(`${running.url}/admin/calls/${unrecorded!.id}/recording`, { headers: { Cookie: cookie } });
    expect(none.status).toBe(404);
  });

  test("the console's player gets the recording from Twilio's API with the account's credentials", async () => {
    const audio = await running.services.calls!.twilio.fetchRecording(sid("RE"));
    expect(Buffer.from(await audio!.arrayBuffer())).toEqual(RECORDING_AUDIO);
    expect(twilio.unauthorised).toBe(0);
  });
});

describe("retention", () => {
  test("purging an old call deletes its recording at Twilio, retried through the outbox while Twilio is down", async () => {
    const callSid = sid("CA");
    const recordingSid = sid("RE");
    await incomingCall(callSid, SITE_NUMBER);
    await dialEnded(callSid, "completed", "40");
    await postWebhook(running.url, SITE_URL, "/api/calls/recording", {
      CallSid: callSid,
      RecordingSid: recordingSid,
      RecordingDuration: "40",
      RecordingStatus: "completed",
    });
    await db()
      .update(calls)
      .set({ startedAt: sql`now() - interval '366 days'` })
      .where(eq(calls.callSid, callSid));

    // The missed-call emails sent so far are a year old too: they go with the calls.
    await db()
      .update(emailOutbox)
      .set({ createdAt: sql`now() - interval '366 days'` })
      .where(eq(emailOutbox.purpose, "missed_call"));
    const missedCallEmails = () => db().select().from(emailOutbox).where(eq(emailOutbox.purpose, "missed_call"));
    expect((await missedCallEmails()).length).toBeGreaterThan(0);

    twilio.down = true;
    expect(await purgeExpiredCalls(running.services.run)).toBe(1);
    expect(await callRow(callSid)).toBeUndefined();
    expect(await missedCallEmails()).toEqual([]);
    await waitUntil(async () => {
      const [message] = await db().select().from(outboxMessages).where(eq(outboxMessages.channel, "twilio"));
      return (message?.attempts ?? 0) >= 2;
    });
    expect(twilio.deleted).toEqual([]);

    twilio.down = false;
    running.services.outbox.nudge();
    await waitUntil(() => twilio.deleted.includes(recordingSid));
    expect(twilio.unauthorised).toBe(0);
  });
});
