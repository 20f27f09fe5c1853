import { expect, test, type Page } from "@playwright/test";
import { runCli, signIn, uniqueOperatorEmail } from "../e2e/console.ts";
import { postContactRequest } from "../e2e/console-leads.ts";
import { expectNoAxeViolations, waitForHydration } from "../e2e/helpers.ts";
import { postWebhook, sid } from "../twilio-stand-in.ts";
import { callsPgliteDir, callsSiteUrl, FORWARD_TO, POOL, SITE_NUMBER } from "./settings.ts";

const PASSWORD = "correct horse battery staple";

/** Every tel: link's target and text on the page. */
const telLinks = (page: Page) =>
  page
    .locator('a[href^="tel:"]')
    .evaluateAll((links) => links.map((link) => ({ href: link.getAttribute("href"), text: link.textContent ?? "" })));

/** The layout shifts the page has had so far, summed as CLS sums them. */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve(total), 200);
      }),
  );

/** The pool number every tel: link shows, once the page has one. */
async function expectTrackingNumberEverywhere(page: Page): Promise<string> {
  await expect.poll(async () => (await telLinks(page))[0]?.href).not.toBe(`tel:${SITE_NUMBER.e164}`);
  const links = await telLinks(page);
  const e164 = links[0]!.href!.slice("tel:".length);
  expect(POOL).toContain(e164);
  const display = `1-800-555-${e164.slice(-4)}`;
  for (const link of links) {
    expect(link.href).toBe(`tel:${e164}`);
    expect(link.text).not.toContain(SITE_NUMBER.display);
  }
  await expect(page.getByText(display).first()).toBeAttached();
  return e164;
}

test("a campaign visit shows its tracking number in every call link, before hydration, on this page and the next; its call is on /admin/calls", async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  // The app's scripts never load: whatever the page shows is the inline script's doing, as before hydration.
  await page.route("**/assets/*.js", (route) => route.abort());
  const campaign = `spring-drains-${Date.now()}`;
  await page.goto(`/drain-services?utm_source=google&utm_medium=cpc&utm_campaign=${campaign}&gclid=Cj0-e2e`);
  const e164 = await expectTrackingNumberEverywhere(page);
  expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
  expect(await layoutShift(page)).toBe(0);

  // The next page of the visit, loaded from the server: the number is there from the first paint.
  await page.goto("/plumbers");
  expect(await expectTrackingNumberEverywhere(page)).toBe(e164);
  expect(await layoutShift(page)).toBe(0);

  // With the app running, hydration keeps the number, and a page the app renders shows it too.
  await page.unroute("**/assets/*.js");
  await page.goto("/contact");
  await waitForHydration(page);
  expect(await expectTrackingNumberEverywhere(page)).toBe(e164);
  await page
    .getByRole("link", { name: /^Home$|Plumbline/ })
    .first()
    .click();
  await expect(page).toHaveURL(`${callsSiteUrl}/`);
  expect(await expectTrackingNumberEverywhere(page)).toBe(e164);

  // Twilio reports a call to that number, answered after a minute and a half.
  const callSid = sid("CA");
  const caller = `+1555${String(Date.now()).slice(-7)}`;
  const voice = await postWebhook(callsSiteUrl, callsSiteUrl, "/api/calls/voice", {
    CallSid: callSid,
    From: caller,
    To: e164,
    CallStatus: "ringing",
  });
  expect(await voice.text()).toContain(`<Number>${FORWARD_TO}</Number>`);
  await postWebhook(callsSiteUrl, callsSiteUrl, "/api/calls/status", {
    CallSid: callSid,
    DialCallStatus: "completed",
    DialCallDuration: "95",
  });
  await postWebhook(callsSiteUrl, callsSiteUrl, "/api/calls/recording", {
    CallSid: callSid,
    RecordingSid: sid("RE"),
    RecordingDuration: "95",
    RecordingStatus: "completed",
  });

  // The caller also sent the contact form, writing their number their own way.
  const national = caller.slice(2);
  const leadId = await postContactRequest(page.request, callsSiteUrl, {
    lastName: "Caller",
    phone: `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`,
  });

  const operator = uniqueOperatorEmail("calls");
  const created = await runCli("operator", ["add", operator], `${PASSWORD}\n`, { PGLITE_DATA_DIR: callsPgliteDir });
  expect(created.code, created.stderr).toBe(0);
  const operatorContext = await browser.newContext();
  const operatorPage = await operatorContext.newPage();
  await operatorPage.goto("/admin/calls");
  await signIn(operatorPage, operator, PASSWORD);
  await operatorPage.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Calls" }).click();
  const row = operatorPage.getByRole("row").filter({ hasText: caller });
  await expect(row).toContainText("Answered");
  await expect(row).toContainText("1 min 35 s");
  await expect(row).toContainText(`google / cpc / ${campaign}`);
  await expect(row).toContainText("/drain-services");
  await expect(row.getByRole("link", { name: caller })).toHaveAttribute("href", `tel:${caller}`);
  // The recording plays from the console (behind sign-in), never from a Twilio URL.
  await expect(row.locator("audio")).toHaveAttribute("src", /^\/admin\/calls\/[0-9a-f-]{36}\/recording$/);

  // The call's row leads to the lead with that phone, whose page lists the call.
  await row.getByRole("link", { name: "Lead" }).click();
  await expect(operatorPage).toHaveURL(`${callsSiteUrl}/admin/leads/${leadId}`);
  await expect(
    operatorPage
      .getByRole("table", { name: /calls from this lead/i })
      .getByRole("row")
      .filter({ hasText: campaign }),
  ).toContainText("Answered");

  await operatorPage.goto("/admin/calls");
  await operatorPage.getByLabel("Outcome").selectOption("Missed");
  await operatorPage.getByRole("button", { name: "Search" }).click();
  await expect(operatorPage.getByRole("row").filter({ hasText: caller })).toHaveCount(0);

  // The dashboard: the answered call beside the taps, by landing page and by campaign (this test's browser is
  // headless, which the site's own counting takes for a bot: no views or taps are counted for it).
  await operatorPage.goto("/admin/dashboard");
  const byPage = operatorPage.getByRole("table", { name: /by page/i });
  await expect(byPage.getByRole("columnheader")).toHaveText([
    "Page",
    "Page views",
    "Calls",
    "Answered calls",
    "Missed calls",
    "Leads",
    "Calls + leads per 100 views",
  ]);
  await expect(byPage.getByRole("row").filter({ hasText: "/drain-services" }).getByRole("cell")).toHaveText([
    "0",
    "0",
    "1",
    "0",
    "0",
    "–",
  ]);
  await expect(
    operatorPage
      .getByRole("table", { name: /source, medium and campaign/ })
      .getByRole("row")
      .filter({ hasText: campaign })
      .getByRole("cell"),
  ).toHaveText(["cpc", campaign, "0", "0", "1", "0", "0"]);

  for (const path of [
    "/admin/calls",
    `/admin/calls?q=${caller.slice(-7)}`,
    `/admin/leads/${leadId}`,
    "/admin/dashboard",
  ]) {
    for (const width of [1280, 390]) {
      await operatorPage.setViewportSize({ width, height: 800 });
      await operatorPage.goto(path);
      await expect(operatorPage.getByRole("button", { name: "Sign out" })).toBeVisible();
      await expectNoAxeViolations(operatorPage);
      expect(await operatorPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  }
  await operatorContext.close();
});

test("a visit without a campaign, or with scripts off, shows the site's own number", async ({ browser, page }) => {
  await page.goto("/drain-services");
  await waitForHydration(page);
  for (const link of await telLinks(page)) expect(link.href).toBe(`tel:${SITE_NUMBER.e164}`);

  const noScripts = await browser.newContext({ javaScriptEnabled: false });
  const visitor = await noScripts.newPage();
  await visitor.goto("/drain-services?utm_source=google&utm_campaign=no-scripts&gclid=Cj0-off");
  const links = await telLinks(visitor);
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) expect(link.href).toBe(`tel:${SITE_NUMBER.e164}`);
  await noScripts.close();
});
