import { expect, test } from "@playwright/test";
import { runCli, signIn, uniqueOperatorEmail } from "../e2e/console.ts";
import { expectNoAxeViolations, waitForHydration } from "../e2e/helpers.ts";
import { placeCall, startTwilioStandIn, type TwilioStandIn } from "../twilio-stand-in.ts";
import { callsPgliteDir, callsSiteUrl, SITE_NUMBER, twilioStandInPort } from "./settings.ts";

const PASSWORD = "correct horse battery staple";
const ZIP = "10001";

// The partner's text after the call goes through the stand-in's Messages API.
let twilio: TwilioStandIn;
test.beforeAll(async () => {
  twilio = await startTwilioStandIn({ port: twilioStandInPort });
});
test.afterAll(async () => {
  await twilio.stop();
});

test("an operator sends calls to a partner and turns on routing; a call the partner takes shows its route and charge on the Calls page and the partner's page, at 1280 and 390 px", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const operator = uniqueOperatorEmail("routing");
  const created = await runCli("operator", ["add", operator], `${PASSWORD}\n`, { PGLITE_DATA_DIR: callsPgliteDir });
  expect(created.code, created.stderr).toBe(0);
  const stamp = String(Date.now()).slice(-4);
  const partnerName = `Rae ${stamp}`;
  const business = `Rae Rooter ${stamp}`;
  const partnerPhone = `+1555010${stamp}`;
  const caller = `+1555020${stamp}`;

  await page.goto("/admin/partners");
  await signIn(page, operator, PASSWORD);
  await waitForHydration(page);
  await page.getByLabel("Name").fill(partnerName);
  await page.getByLabel("Business").fill(business);
  await page.getByLabel("Phone").fill(partnerPhone);
  await page.getByLabel("Email").fill(`rae-${stamp}@partner.example`);
  await page.getByRole("checkbox", { name: "Drain Services" }).check();
  await page.getByLabel("ZIP codes").fill(ZIP);
  await page.getByRole("checkbox", { name: "Send calls to this partner" }).check();
  await page.getByLabel("Fee per call", { exact: true }).fill("35.50");
  await page.getByLabel("Hours").fill("24/7");
  await page.getByRole("button", { name: "Save partner" }).click();
  await expect(page.getByRole("status")).toContainText(`Partner ${partnerName} added.`);
  await expect(page.getByRole("row", { name: new RegExp(partnerName) })).toContainText("24/7");
  // The partner's own fee is the one charged; the default is for partners without one.
  await page.getByRole("checkbox", { name: "Route calls to partners" }).check();
  await page.getByLabel("Default fee per call").fill("25");
  await page.getByRole("button", { name: "Save routing" }).click();
  await expect(page.getByRole("status")).toContainText("Routing saved: calls routed to partners");
  const partnerPath = await page.getByRole("link", { name: partnerName }).getAttribute("href");

  // Twilio's side of the call: the partner's phone rings with the whisper, they press 1 and talk for 95 s.
  const call = await placeCall(
    { serverUrl: () => callsSiteUrl, siteUrl: callsSiteUrl },
    {
      from: caller,
      to: SITE_NUMBER.e164,
      fromZip: ZIP,
      phones: { [partnerPhone]: { kind: "answers", presses: "1", talkSeconds: 95 } },
    },
  );
  expect(call.steps.every((step) => step.status === 200)).toBe(true);
  expect(call.dialled.map((dialled) => dialled.number)).toEqual([partnerPhone]);
  expect(call.partnerHeard.join(" ")).toContain("Press 1 to take this call.");
  expect(call.connectedTo).toBe(partnerPhone);
  await expect
    .poll(() => twilio.texts.find((text) => text.to === partnerPhone)?.body)
    .toContain(`call from ${caller}, 1 min 35 s. $35.50.`);

  await page.goto("/admin/calls");
  const row = page.getByRole("row").filter({ hasText: caller });
  await expect(row.getByRole("listitem")).toHaveText([`${business}: took it, 1 min 35 s`]);
  await expect(row).toContainText("Billable: $35.50");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }

  await page.goto(partnerPath!);
  await expect(page.getByRole("region", { name: "Calls", exact: true }).getByRole("definition")).toHaveText([
    "1",
    "1",
    "1",
    "100%",
  ]);
  const charge = page
    .getByRole("table", { name: /Ledger/ })
    .getByRole("row")
    .filter({ hasText: "Charge" });
  await expect(charge).toContainText("$35.50");
  await expect(charge).toContainText(ZIP);
  await expect(page.getByRole("region", { name: "Balance", exact: true })).toContainText("$35.50 owed by the partner");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }

  // Routing off again, as the other tests on this server expect.
  await page.goto("/admin/partners");
  await page.getByRole("checkbox", { name: "Route calls to partners" }).uncheck();
  await page.getByRole("button", { name: "Save routing" }).click();
  await expect(page.getByRole("status")).toContainText("Routing saved: calls not routed");
});
