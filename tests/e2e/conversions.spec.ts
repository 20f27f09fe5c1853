import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { countOf, countRows, VISITOR_USER_AGENT } from "./attribution.ts";
import { createOperator, formFields, sendAgain, signIn, uniqueOperatorEmail } from "./console.ts";
import { uniquePhone } from "./console-leads.ts";
import { expectFitsTheScreen, expectNoAxeViolations, waitForHydration } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";

const PASSWORD = "correct horse battery staple";

/** The test server's OPERATOR_TIME_ZONE (the default): the dashboard counts its days. */
const OPERATOR_TIME_ZONE = "America/New_York";
/** Today in the operator's zone, as yyyy-MM-dd. */
const operatorToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: OPERATOR_TIME_ZONE }).format(new Date());

/** The dashboard's cost for spend entered for this month, over the last 7 days: the month's share of its days. */
function sevenDayShareCents(amountCents: number): number {
  const [year, month, day] = operatorToday().split("-").map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return Math.round((amountCents * Math.min(7, day)) / daysInMonth);
}
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

test("a lead from an ad, booked with a job value, goes into the Google Ads file; its spend gives cost per lead and per booked job", async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  const marker = uniqueMarker();
  const campaign = `drains-${marker}`.toLowerCase();
  const gclid = `Cj0KCQ-${marker}`;
  const operator = uniqueOperatorEmail("conversions");
  await createOperator(operator, PASSWORD);

  // A visitor lands from a Google ad, starts the contact form and sends it.
  const visitor = await browser.newPage({ userAgent: VISITOR_USER_AGENT });
  await visitor.goto(`/contact?utm_source=google&utm_campaign=${campaign}&gclid=${gclid}`);
  await waitForHydration(visitor);
  const phone = uniquePhone();
  await visitor.getByLabel("First Name").fill("Maria");
  await visitor.getByLabel("Last Name").fill(marker);
  await visitor.getByLabel("Email").fill("maria@example.com");
  await visitor.getByLabel("Phone Number").fill(phone.display);
  await visitor.getByLabel("Service Needed").fill("Burst pipe");
  await visitor.getByLabel("Additional Details").fill("Water everywhere.");
  await visitor.getByRole("button", { name: "Send Request" }).click();
  await expect(visitor.locator("[data-sonner-toast]")).toContainText("Message sent successfully!");
  await visitor.close();

  // The operator books the job with its value.
  await page.goto(`/admin?q=${phone.digits}`);
  await signIn(page, operator, PASSWORD);
  await page.goto(`/admin?q=${phone.digits}`);
  await page.getByRole("link", { name: `Maria ${marker}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Maria ${marker}`);
  await waitForHydration(page);
  await page.getByLabel("Status").selectOption("Booked");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Status: Booked")).toBeVisible();
  await page.getByLabel("Job value (USD)").fill("1,250.50");
  await page.getByRole("button", { name: "Set job value" }).click();
  await expect(page.getByLabel("Job value (USD)")).toHaveValue("1250.50");
  await expect(page.getByRole("region", { name: "History" })).toContainText("Note: Job value set to $1,250.50.");

  // The Google Ads file holds the lead and the booked job for that gclid, the job at its own value.
  await page.getByRole("link", { name: "Conversions" }).click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download Google Ads conversions (CSV)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^google-ads-conversions-\d{4}-\d\d-\d\d\.csv$/);
  const file = await readFile(await download.path(), "utf8");
  const lines = file.split("\r\n");
  expect(lines[0]).toBe("Parameters:TimeZone=America/New_York");
  expect(lines[1]).toBe(
    "Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency,GBRAID,WBRAID",
  );
  const time = String.raw`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`;
  expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${gclid},Lead,${time},0\\.00,USD,,$`)));
  expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${gclid},Booked job,${time},1250\\.50,USD,,$`)));

  // It is listed, and downloads again exactly as it was; the next file no longer holds it.
  await page.reload();
  const again = page.getByRole("region", { name: "Past downloads" }).getByRole("link", { name: /Download again/ });
  const href = await again.first().getAttribute("href");
  expect(await (await page.request.get(href!)).text()).toBe(file);
  const [next] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download Google Ads conversions (CSV)" }).click(),
  ]);
  expect(await readFile(await next.path(), "utf8")).not.toContain(gclid);

  // Spend for that campaign this month.
  await page.reload();
  await page.getByLabel("Month").fill(operatorToday().slice(0, 7));
  await page.getByLabel("Source").fill("google");
  await page.getByLabel("Campaign (optional)").fill(campaign);
  await page.getByLabel("Amount (USD)").fill("300");
  await page.getByRole("button", { name: "Save spend" }).click();
  await expect(page.getByRole("status")).toHaveText("Spend of $300.00 saved.");
  await expect(page.getByRole("region", { name: "Spend entered" })).toContainText(campaign);

  // The dashboard: its cost, one lead and one booked job, so the same cost per lead and per booked job; no partner
  // accepted it, so no revenue, and the cost is its loss.
  await page.goto("/admin/dashboard?days=7");
  const cost = dollars(sevenDayShareCents(30_000));
  const row = page
    .getByRole("region", { name: "Cost by source and campaign" })
    .getByRole("row")
    .filter({ hasText: campaign });
  await expect(row.getByRole("cell")).toHaveText([campaign, cost, "1", "1", cost, cost, "$0.00", `-${cost}`]);
  const funnel = page
    .getByRole("region", { name: "Funnel by source and campaign" })
    .getByRole("row")
    .filter({ hasText: campaign });
  // One view, one form start, one lead, one booked job (the contact page was the visit's only page).
  await expect(funnel.getByRole("cell")).toHaveText([campaign, "1", "0", "1", "1", "1"]);

  // The first screen's tiles say what the cost table's Total row says, and the campaign is ranked by its profit.
  const tile = (label: string) =>
    page
      .getByRole("region", { name: "How the business is doing" })
      .locator("div")
      .filter({ has: page.getByRole("term").getByText(label, { exact: true }) })
      .getByRole("definition")
      .first();
  const totalCells = page
    .getByRole("region", { name: "Cost by source and campaign" })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: "Total", exact: true }) })
    .getByRole("cell");
  await expect(tile("Spend")).toHaveText((await totalCells.first().textContent())!);
  await expect(tile("Booked jobs")).toHaveText((await totalCells.nth(2).textContent())!);
  await expect(tile("Revenue")).toHaveText((await totalCells.nth(-2).textContent())!);
  await expect(tile("Profit")).toHaveText((await totalCells.nth(-1).textContent())!);
  await expect(
    page
      .getByRole("region", { name: "Campaigns by profit" })
      .getByRole("row")
      .filter({ hasText: campaign })
      .getByRole("cell"),
  ).toHaveText([campaign, "$0.00", cost, `-${cost}`]);
  // The daily table is folded away until asked for.
  await expect(page.getByRole("region", { name: "Figures per day" })).toBeHidden();
  await page.getByText("Figures per day (table)").click();
  await expect(page.getByRole("region", { name: "Figures per day" })).toBeVisible();

  for (const path of ["/admin/conversions", "/admin/dashboard?days=7"]) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(path);
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
      await expectNoAxeViolations(page);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${path} at ${width} px`,
      ).toBeLessThanOrEqual(width);
    }
  }
  // At 390 px, with the daily table unfolded, the dashboard still has no sideways scroll (its tables scroll in
  // their own regions), and its days are named once as the operator's, never as UTC.
  await page.getByText("Figures per day (table)").click();
  await expect(page.getByRole("region", { name: "Figures per day" })).toBeVisible();
  await expectNoAxeViolations(page);
  expect(
    await page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth),
  ).toBeLessThanOrEqual(0);
  await expect(page.getByText(`days in ${OPERATOR_TIME_ZONE}`)).toHaveCount(1);
  await expect(page.getByText(/\bUTC\b/)).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Figures per day" }).getByRole("rowheader").last()).toHaveText(
    operatorToday(),
  );
});

test("the first input in the contact form is counted once as a form start, with the visit's campaign", async ({
  browser,
}) => {
  const campaign = `form-start-${uniqueMarker()}`.toLowerCase();
  const visitor = await browser.newPage({ userAgent: VISITOR_USER_AGENT });
  await visitor.goto(`/contact?utm_source=bing&utm_campaign=${campaign}`);
  await waitForHydration(visitor);
  await visitor.getByLabel("First Name").fill("Maria");
  await visitor.getByLabel("Last Name").fill("Lopez");
  await visitor.close();

  const operator = uniqueOperatorEmail("form-start");
  await createOperator(operator, PASSWORD);
  const page = await browser.newPage();
  await page.goto("/admin/dashboard");
  await signIn(page, operator, PASSWORD);
  await expect
    .poll(async () => countOf(await countRows(page), { kind: "form", path: "/contact", source: "bing", campaign }))
    .toBe(1);
  await page.close();
});

test("Scheduled fetch: the operator makes Google's username and password, shown once, and the platform fetches the file with them", async ({
  page,
  baseURL,
}) => {
  const operator = uniqueOperatorEmail("scheduled-fetch");
  await createOperator(operator, PASSWORD);
  await page.goto("/admin/conversions");
  await signIn(page, operator, PASSWORD);
  await page.getByRole("link", { name: "Scheduled fetch" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Scheduled fetch" })).toBeVisible();
  const google = page.getByRole("region", { name: "Google Ads" });
  await google.getByRole("button", { name: /for Google Ads$/ }).click();
  const shown = page.getByRole("status");
  await expect(shown).toContainText("not shown again");
  const [username, password] = await shown.locator("code").allTextContents();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }
  const url = `${baseURL}/conversions/scheduled/google.csv`;
  expect((await page.request.get(url)).status()).toBe(401);
  const fetched = await page.request.get(url, {
    headers: { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` },
  });
  expect(fetched.status()).toBe(200);
  expect(await fetched.text()).toMatch(/^Parameters:TimeZone=/);
  // Once shown, the password is not on the page again.
  await page.goto("/admin/conversions/scheduled");
  await expect(page.getByText(password!)).toHaveCount(0);

  // "Roll password" asks first; "Cancel" keeps the password in use working.
  const basic = (secret: string) => ({
    headers: { Authorization: `Basic ${Buffer.from(`${username}:${secret}`).toString("base64")}` },
  });
  await google.getByRole("button", { name: "Roll password for Google Ads" }).click();
  await expect(page.getByText("Roll the password for Google Ads?")).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByText("Roll the password for Google Ads?")).toHaveCount(0);
  expect((await page.request.get(url, basic(password!))).status()).toBe(200);
  // Confirmed by a double click, then sent again: one new password, shown once; the old one stops.
  await google.getByRole("button", { name: "Roll password for Google Ads" }).click();
  const yes = page.getByRole("button", { name: "Yes, roll password" });
  const fields = await formFields(yes.locator("xpath=ancestor::form[1]"));
  await yes.dblclick();
  await expect(page.getByRole("status").locator("code")).toHaveCount(2);
  const rolled = (await page.getByRole("status").locator("code").allTextContents())[1]!;
  expect(rolled).not.toBe(password);
  await page.goto(await sendAgain(page, "/admin/conversions/scheduled", fields));
  await expect(page.getByText("New password made for Google Ads.")).toHaveCount(1);
  await expect(page.getByText(rolled)).toHaveCount(0);
  expect((await page.request.get(url, basic(password!))).status()).toBe(401);
  expect((await page.request.get(url, basic(rolled))).status()).toBe(200);
});
