import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { callOffers, calls } from "../../app/server/calls/schema.server.ts";
import { ledgerEntries } from "../../app/server/ledger/schema.server.ts";
import { approveReturn, listReturns } from "../../app/server/ledger/index.server.ts";
import { partners } from "../../app/server/partners/schema.server.ts";
import { saveRoutingSettings } from "../../app/server/partners/index.server.ts";
import {
  placeCall,
  postWebhook,
  sid,
  TEST_ACCOUNT_SID,
  TEST_AUTH_TOKEN,
  startTwilioStandIn,
  type CallScript,
  type TwilioStandIn,
} from "../twilio-stand-in.ts";
import { testEnv, waitUntil } from "../../tooling/local-services.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../webhook-receiver.ts";
import { listCalls, partnerCallStats } from "../../app/server/calls/index.server.ts";
import { createApiKey } from "../../app/server/api/index.server.ts";
import { saveOperator } from "../../app/server/console/operators.server.ts";
import { campaignReport } from "../../app/server/conversions/index.server.ts";
import { onBothDatabases } from "./both-databases.ts";

/**
 * Calls routed to partners, driven whole through Twilio's signed webhooks by the call-flow stand-in, on both
 * databases: the ZIP, the ring tree with its whisper, the one call a partner takes at a time, the charge of a
 * billable call once, and a restart between two steps.
 */

const SITE_URL = "https://plumbline.example";
const FORWARD_TO = "+15550100200";
const SITE_NUMBER = "+18005550199";
const POOL = ["+18005550101", "+18005550102"];
const ZIP = "78701";

const databases = onBothDatabases();

describe.each(databases.drivers)("calls routed to partners on $name", ({ storage }) => {
  let running: RunningServer;
  let twilio: TwilioStandIn;
  let receiver: WebhookReceiver;
  let env: ReturnType<typeof testEnv>;

  beforeAll(async () => {
    [twilio, receiver] = await Promise.all([startTwilioStandIn(), startWebhookReceiver()]);
    env = testEnv({
      ...(await storage()),
      SITE_URL,
      SMTP_URL: databases.smtp.url,
      TWILIO_ACCOUNT_SID: TEST_ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: TEST_AUTH_TOKEN,
      TWILIO_API_URL: twilio.apiUrl,
      CALL_FORWARD_TO: FORWARD_TO,
      CALL_TRACKING_POOL: POOL.join(","),
      PHONE_E164: SITE_NUMBER,
      PHONE_DISPLAY: "1-800-555-0199",
      COMPANY_NAME: "Plumbline",
      CALL_ASK_ZIP: "on",
      // The webhook receiver listens on loopback over http.
      WEBHOOK_ALLOW_PRIVATE: "true",
    });
    running = await startServer(env);
    const form = new FormData();
    form.set("url", receiver.url);
    form.append("events", "call.completed");
    const added = await running.services.webhooks.add(form);
    if (added.kind !== "added") throw new Error("the webhook endpoint was refused");
    receiver.secret = added.secret;
  });
  afterAll(async () => {
    await running?.close();
    await Promise.all([twilio?.stop(), receiver?.stop()]);
  });

  const db = () => running.services.db;
  const target = { serverUrl: () => running.url, siteUrl: SITE_URL };
  let callerNumber = 0;
  /** A caller not seen before, so that only the repeat-caller test meets the rule. */
  const newCaller = () => `+1555020${String(++callerNumber).padStart(4, "0")}`;

  /** Partners for the tests: the four given (each serving ZIP 78701 and drains, 24/7, $25 a call), and no others. */
  async function onlyPartners(
    list: { phone: string; priority?: number; callsPerDay?: number; paused?: boolean; callFeeMinor?: number }[],
  ) {
    await db().update(partners).set({ active: false });
    const added = await db()
      .insert(partners)
      .values(
        list.map((partner, index) => ({
          name: `Partner ${index + 1}`,
          business: `Business ${partner.phone.slice(-4)}`,
          phone: partner.phone,
          email: `partner${partner.phone.slice(-4)}@example.com`,
          services: ["Drain Services"],
          zipCodes: [ZIP],
          takesCalls: true,
          hours: "24/7",
          priority: partner.priority ?? 2,
          callsPerDay: partner.callsPerDay ?? null,
          callFeeMinor: partner.callFeeMinor ?? 2_500,
          pausedAt: partner.paused ? new Date() : null,
        })),
      )
      .returning({ id: partners.id, phone: partners.phone });
    return Object.fromEntries(added.map((partner) => [partner.phone, partner.id]));
  }

  const answers = (talkSeconds = 95) => ({ kind: "answers" as const, presses: "1", talkSeconds });
  const call = (script: Partial<CallScript>) =>
    placeCall(target, { from: newCaller(), to: SITE_NUMBER, zipEntries: [ZIP], ...script });
  const callRow = async (callSid: string) => (await db().select().from(calls).where(eq(calls.callSid, callSid)))[0]!;
  const chargesOf = (callId: string) => db().select().from(ledgerEntries).where(eq(ledgerEntries.callId, callId));

  beforeAll(async () => {
    await saveRoutingSettings(db(), { routeCalls: true, defaultCallFeeMinor: 0, referAutomatically: false });
  });

  test("routing off: the call rings CALL_FORWARD_TO as before, with no ZIP asked", async () => {
    await onlyPartners([{ phone: "+15550300001" }]);
    await saveRoutingSettings(db(), { routeCalls: false, defaultCallFeeMinor: 0, referAutomatically: false });
    try {
      const record = await call({ phones: { [FORWARD_TO]: answers(30) } });
      expect(record.callerHeard).toEqual([]);
      expect(record.dialled.map((dialled) => dialled.number)).toEqual([FORWARD_TO]);
      expect((await callRow(record.callSid)).status).toBe("answered");
    } finally {
      await saveRoutingSettings(db(), { routeCalls: true, defaultCallFeeMinor: 0, referAutomatically: false });
    }
  });

  test("taken by the first partner: the whisper names the company, service and ZIP, and the call is charged once", async () => {
    const ids = await onlyPartners([{ phone: "+15550300011" }, { phone: "+15550300012", priority: 3 }]);
    // The caller types four digits first: asked again, then five.
    const record = await call({
      zipEntries: ["7870", ZIP],
      phones: { "+15550300011": answers(95) },
      dialActionTimes: 2,
    });
    expect(record.callerHeard).toEqual([
      "Please enter your five-digit ZIP code.",
      "Please enter your five-digit ZIP code.",
    ]);
    expect(record.dialled).toEqual([{ number: "+15550300011", timeout: 15, answerOnBridge: true, whisper: true }]);
    expect(record.partnerHeard).toEqual([
      "Plumbline call for plumbing, ZIP code 7 8 7 0 1. Press 1 to take this call.",
    ]);
    expect(record.connectedTo).toBe("+15550300011");
    expect(record.steps.every((step) => step.status === 200)).toBe(true);
    const row = await callRow(record.callSid);
    expect(row).toMatchObject({
      status: "answered",
      zip: ZIP,
      partnerId: ids["+15550300011"],
      billing: "billable",
      chargeMinor: 2_500,
      durationSeconds: 95,
    });
    // Twilio sent the Dial's end twice: one charge.
    const charges = await chargesOf(row.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ kind: "charge", amountMinor: 2_500, zip: ZIP, partnerId: ids["+15550300011"] });
  });

  test("the visit's landing page names the service; a caller who enters nothing is routed by Twilio's FromZip", async () => {
    await onlyPartners([{ phone: "+15550300021" }]);
    const hold = await fetch(`${running.url}/api/calls/number`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: running.url },
      body: JSON.stringify({ visit: { landing_path: "/drain-services", utm_source: "google", utm_campaign: "fall" } }),
    });
    const { e164 } = (await hold.json()) as { e164: string };
    expect(POOL).toContain(e164);
    const record = await call({
      to: e164,
      zipEntries: ["", ""],
      fromZip: ZIP,
      phones: { "+15550300021": answers(61) },
    });
    expect(record.partnerHeard[0]).toBe(
      "Plumbline call for Drain Services, ZIP code 7 8 7 0 1. Press 1 to take this call.",
    );
    const row = await callRow(record.callSid);
    expect(row).toMatchObject({ service: "Drain Services", zip: ZIP, billing: "billable" });
    expect((await chargesOf(row.id))[0]).toMatchObject({
      service: "Drain Services",
      source: "google",
      campaign: "fall",
    });
    // The dashboard's revenue (and so profit) per campaign counts the call's charge.
    const today = new Date().toISOString().slice(0, 10);
    const report = await campaignReport(db(), { from: today, to: today }, "UTC", undefined, Promise.resolve([]));
    expect(report.find((campaign) => campaign.source === "google" && campaign.campaign === "fall")).toMatchObject({
      revenueCents: 2_500,
      profitCents: 2_500,
    });
  });

  test("the first partner does not press 1 and the second takes it; a key other than 1 does not connect", async () => {
    const ids = await onlyPartners([
      { phone: "+15550300031", priority: 1 },
      { phone: "+15550300032", priority: 2 },
    ]);
    const record = await call({
      phones: {
        "+15550300031": { kind: "answers", presses: "9", talkSeconds: 0 },
        "+15550300032": answers(70),
      },
    });
    expect(record.dialled.map((dialled) => dialled.number)).toEqual(["+15550300031", "+15550300032"]);
    expect(record.connectedTo).toBe("+15550300032");
    const row = await callRow(record.callSid);
    expect(row.partnerId).toBe(ids["+15550300032"]);
    const offers = await db()
      .select()
      .from(callOffers)
      .where(eq(callOffers.callId, row.id))
      .orderBy(callOffers.position);
    expect(offers.map((offer) => [offer.status, offer.missedBecause])).toEqual([
      ["missed", "Did not press 1"],
      ["ended", null],
    ]);

    // The Calls page shows the route; the partners' pages their calls offered, taken, billed and answer rate.
    const [listed] = (await listCalls(db(), { q: row.caller, outcome: "" }, "UTC", "USD")).rows;
    expect(listed!.route).toEqual({
      rang: ["Business 0031: did not press 1", "Business 0032: took it, 1 min 10 s"],
      billing: "Billable",
      charge: "$25.00",
    });
    await saveOperator(db(), "calls@operator.example", "correct horse battery staple");
    const signedIn = await running.services.consoleAuth.signIn(
      { email: "calls@operator.example", password: "correct horse battery staple" },
      "192.0.2.202",
    );
    if (signedIn.outcome !== "signed-in") throw new Error("sign-in failed");
    const cookie = { Cookie: signedIn.setCookie.split(";")[0]! };
    const callsPage = await (await fetch(`${running.url}/admin/calls`, { headers: cookie })).text();
    expect(callsPage).toContain("Business 0031: did not press 1");
    expect(callsPage).toContain("Billable: $25.00");
    const partnerPage = await (
      await fetch(`${running.url}/admin/partners/${ids["+15550300032"]}`, { headers: cookie })
    ).text();
    expect(partnerPage).toMatch(/Answer rate<\/dt><dd>100<!-- -->%/);
    expect(await partnerCallStats(db(), ids["+15550300031"]!)).toEqual({
      offered: 1,
      taken: 0,
      billed: 0,
      answerRatePercent: 0,
    });
    expect(await partnerCallStats(db(), ids["+15550300032"]!)).toEqual({
      offered: 1,
      taken: 1,
      billed: 1,
      answerRatePercent: 100,
    });

    // The call.completed webhook and the read API carry the partner and the charge.
    await waitUntil(() => receiver.received.some((event) => event.payload.data.id === row.id));
    const completed = receiver.received.find((event) => event.payload.data.id === row.id)!.payload;
    expect(completed).toMatchObject({
      type: "call.completed",
      data: { status: "answered", partner_id: ids["+15550300032"], billing: "billable", charge_minor: 2_500, zip: ZIP },
    });
    const key = await createApiKey(db(), { name: "CRM", scopes: ["calls:read"], by: "op@example.com" });
    const api = await fetch(`${running.url}/api/v1/calls?limit=100`, { headers: { Authorization: `Bearer ${key}` } });
    const { data } = (await api.json()) as { data: Record<string, unknown>[] };
    expect(data.find((listedCall) => listedCall.id === row.id)).toMatchObject({
      partner_id: ids["+15550300032"],
      billing: "billable",
      charge_minor: 2_500,
      zip: ZIP,
    });
  });

  test("nobody takes it: at most three partners ring, then the operator's number, then voicemail; nothing is charged", async () => {
    await onlyPartners([
      { phone: "+15550300041", priority: 1 },
      { phone: "+15550300042", priority: 1 },
      { phone: "+15550300043", priority: 2 },
      { phone: "+15550300044", priority: 3 },
    ]);
    const record = await call({
      phones: {
        "+15550300041": { kind: "busy" },
        "+15550300043": { kind: "answers", presses: "", talkSeconds: 0 },
      },
      voicemailSeconds: 12,
    });
    // The two of priority 1 first (in either order: neither was offered a call before), then priority 2.
    expect(
      record.dialled
        .slice(0, 2)
        .map((dialled) => dialled.number)
        .sort(),
    ).toEqual(["+15550300041", "+15550300042"]);
    expect(record.dialled.slice(2).map((dialled) => [dialled.number, dialled.whisper])).toEqual([
      ["+15550300043", true],
      [FORWARD_TO, false],
    ]);
    expect(record.dialled.at(-1)!.answerOnBridge).toBe(true);
    expect(record.voicemailOffered).toBe(true);
    const row = await callRow(record.callSid);
    expect(row).toMatchObject({ status: "voicemail", partnerId: null, billing: null });
    expect(await chargesOf(row.id)).toEqual([]);
  });

  test("two calls at once never ring the same partner", async () => {
    await onlyPartners([
      { phone: "+15550300051", priority: 1 },
      { phone: "+15550300052", priority: 2 },
    ]);
    let second: Awaited<ReturnType<typeof call>> | undefined;
    const first = await call({
      phones: { "+15550300051": answers(80), "+15550300052": answers(80) },
      // While the first partner's phone rings for the first call, a second caller calls.
      onRing: async (number) => {
        if (number === "+15550300051" && !second) {
          second = await call({ phones: { "+15550300051": answers(80), "+15550300052": answers(80) } });
        }
      },
    });
    expect(first.connectedTo).toBe("+15550300051");
    expect(second!.dialled.map((dialled) => dialled.number)).toEqual(["+15550300052"]);
    expect(second!.connectedTo).toBe("+15550300052");
  });

  test("a partner at their daily cap, or paused, is skipped", async () => {
    await onlyPartners([
      { phone: "+15550300061", priority: 1, callsPerDay: 1 },
      { phone: "+15550300062", priority: 1, paused: true },
      { phone: "+15550300063", priority: 3 },
    ]);
    const phones = {
      "+15550300061": answers(65),
      "+15550300062": answers(65),
      "+15550300063": answers(65),
    };
    expect((await call({ phones })).connectedTo).toBe("+15550300061");
    const capped = await call({ phones });
    expect(capped.dialled.map((dialled) => dialled.number)).toEqual(["+15550300063"]);
  });

  test("59 seconds are not billed and 60 are, once, whatever Twilio repeats", async () => {
    await onlyPartners([{ phone: "+15550300071" }]);
    const phones = (talkSeconds: number) => ({ "+15550300071": answers(talkSeconds) });
    const short = await callRow((await call({ phones: phones(59), dialActionTimes: 3 })).callSid);
    expect(short).toMatchObject({ billing: "short", chargeMinor: null, durationSeconds: 59 });
    expect(await chargesOf(short.id)).toEqual([]);
    const billed = await callRow((await call({ phones: phones(60), dialActionTimes: 3 })).callSid);
    expect(billed).toMatchObject({ billing: "billable", chargeMinor: 2_500 });
    expect(await chargesOf(billed.id)).toHaveLength(1);
  });

  test("the same caller to the same partner within 7 days is not charged again", async () => {
    await onlyPartners([{ phone: "+15550300081" }]);
    const from = newCaller();
    const phones = { "+15550300081": answers(120) };
    const first = await callRow((await call({ from, phones })).callSid);
    const again = await callRow((await call({ from, phones })).callSid);
    expect(first.billing).toBe("billable");
    expect(again).toMatchObject({ billing: "repeat-caller", chargeMinor: null });
    expect(await chargesOf(again.id)).toEqual([]);
  });

  test("the partner is emailed the call and its charge, and a dispute approved on the Returns page is a credit", async () => {
    const ids = await onlyPartners([{ phone: "+15550300101" }]);
    const from = newCaller();
    // The SMTP peer is the file's: only mail after this call is this server's.
    const mailBefore = databases.smtp.received.length;
    const record = await call({ from, phones: { "+15550300101": answers(125) } });
    const row = await callRow(record.callSid);
    const mailTo = "partner0101@example.com";
    const mailOfThisCall = () => databases.smtp.received.slice(mailBefore).find((mail) => mail.to.includes(mailTo));
    await waitUntil(() => mailOfThisCall() !== undefined);
    const mail = mailOfThisCall()!;
    expect(mail.subject).toBe("Your Plumbline call: $25.00");
    expect(mail.text).toContain(`Caller: ${from}`);
    expect(mail.text).toContain("Duration: 2 min 05 s");
    const link = /https:\/\/plumbline\.example(\/d\/\S+)/.exec(mail.text)![1]!;
    // A link whose signature was altered opens nothing.
    expect((await fetch(`${running.url}${link.slice(0, -2)}xx`)).status).toBe(404);
    const page = await fetch(`${running.url}${link}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Dispute this call");
    const sent = await fetch(`${running.url}${link}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: running.url },
      body: new URLSearchParams({ reason: "Wrong number" }).toString(),
    });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain("You disputed this call (Wrong number)");
    const { open } = await listReturns(db());
    const dispute = open.find((listed) => listed.callId === row.id)!;
    expect(dispute).toMatchObject({ partnerId: ids["+15550300101"], reason: "Wrong number", chargeMinor: 2_500 });
    expect(await approveReturn(running.services.run, dispute.id, "owner@example.com", "2026-12-06")).toBe(true);
    expect(await approveReturn(running.services.run, dispute.id, "owner@example.com", "2026-12-06")).toBe(false);
    const entries = await chargesOf(row.id);
    expect(entries.map((entry) => [entry.kind, entry.amountMinor]).sort()).toEqual([
      ["charge", 2_500],
      ["credit", -2_500],
    ]);
  });

  test("a restart between two steps loses nothing: the next step goes on from the stored route", async () => {
    const ids = await onlyPartners([
      { phone: "+15550300091", priority: 1 },
      { phone: "+15550300092", priority: 2 },
    ]);
    let restarted = false;
    const record = await call({
      phones: { "+15550300091": { kind: "no-answer" }, "+15550300092": answers(75) },
      beforeStep: async (path) => {
        if (!restarted && path.startsWith("/api/calls/ring")) {
          restarted = true;
          await running.close();
          running = await startServer(env);
        }
      },
    });
    expect(restarted).toBe(true);
    expect(record.steps.every((step) => step.status === 200)).toBe(true);
    expect(record.dialled.map((dialled) => dialled.number)).toEqual(["+15550300091", "+15550300092"]);
    expect(await callRow(record.callSid)).toMatchObject({ partnerId: ids["+15550300092"], billing: "billable" });
  });

  test("a step for a call or offer that does not exist gets 404 and changes nothing", async () => {
    const before = await db()
      .select({ count: sql<number>`count(*)::int` })
      .from(callOffers);
    const missingOffer = "00000000-0000-4000-8000-000000000001";
    for (const path of [
      `/api/calls/ring?offer=${missingOffer}`,
      `/api/calls/whisper?offer=${missingOffer}`,
      `/api/calls/whisper-digit?offer=${missingOffer}`,
      "/api/calls/zip?try=1",
    ]) {
      const response = await postWebhook(running.url, SITE_URL, path, {
        AccountSid: TEST_ACCOUNT_SID,
        CallSid: sid("CA"),
        CallStatus: "in-progress",
        DialCallStatus: "completed",
        Digits: "1",
      });
      expect(response.status, path).toBe(404);
    }
    const bad = await postWebhook(running.url, SITE_URL, "/api/calls/ring?offer=not-an-id", {
      AccountSid: TEST_ACCOUNT_SID,
      CallSid: sid("CA"),
      DialCallStatus: "completed",
    });
    expect(bad.status).toBe(400);
    expect(
      await db()
        .select({ count: sql<number>`count(*)::int` })
        .from(callOffers),
    ).toEqual(before);
  });
});
