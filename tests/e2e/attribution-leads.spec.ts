import { expect, test, type Browser, type Page } from "@playwright/test";
import { stayOnPageForTelLinks, VISITOR_USER_AGENT } from "./attribution.ts";
import { createOperator, signIn, uniqueOperatorEmail } from "./console.ts";
import { uniquePhone } from "./console-leads.ts";
import { prerenderedRoutes, waitForHydration } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";

const PASSWORD = "correct horse battery staple";
let operator: string;

test.beforeAll(async () => {
  operator = uniqueOperatorEmail("attribution");
  await createOperator(operator, PASSWORD);
});

async function fillContactForm(page: Page, lastName: string, phone: string) {
  await page.getByLabel("First Name").fill("Maria");
  await page.getByLabel("Last Name").fill(lastName);
  await page.getByLabel("Email").fill("maria@example.com");
  await page.getByLabel("Phone Number").fill(phone);
  await page.getByLabel("Service Needed").fill("Burst pipe");
  await page.getByLabel("Additional Details").fill("Water everywhere.");
}

test("a lead sent after landing from an ad shows its campaign and gclid on its console page and in the CSV", async ({
  browser,
}) => {
  const marker = uniqueMarker();
  const visitor = await browser.newPage({ userAgent: VISITOR_USER_AGENT });
  await visitor.goto("/?utm_source=google&utm_campaign=spring&gclid=test-gclid");
  await waitForHydration(visitor);
  await visitor.getByRole("link", { name: "Contact", exact: true }).first().click();
  await expect(visitor).toHaveURL(/\/contact$/);
  await waitForHydration(visitor);
  const phone = uniquePhone();
  await fillContactForm(visitor, marker, phone.display);
  await visitor.getByRole("button", { name: "Send Request" }).click();
  await expect(visitor.locator("[data-sonner-toast]")).toContainText("Message sent successfully!");
  await visitor.close();

  const page = await browser.newPage();
  await page.goto(`/admin?q=${phone.digits}`);
  await signIn(page, operator, PASSWORD);
  await page.goto(`/admin?q=${phone.digits}`);
  await page.getByRole("link", { name: `Maria ${marker}` }).click();
  const found = page.getByRole("region", { name: "How they found us" });
  // Each term is followed by its value.
  for (const pair of ["Landing page/", "utm_sourcegoogle", "utm_campaignspring", "gclidtest-gclid"]) {
    await expect(found).toContainText(pair);
  }

  const csv = await (await page.request.get("/admin/export/leads.csv")).text();
  const [header, ...rows] = csv.trimEnd().split("\r\n");
  // The attribution columns come last; the consent text before them holds commas, so they are read from the end.
  const columns = header!.split(",").slice(-12);
  const row = rows
    .find((line) => line.includes(marker))!
    .split(",")
    .slice(-12);
  const cell = (name: string) => row[columns.indexOf(name)];
  expect([cell("landing_path"), cell("utm_source"), cell("utm_campaign"), cell("gclid")]).toEqual([
    "/",
    "google",
    "spring",
    "test-gclid",
  ]);
  await page.close();
});

test("a lead posted with JavaScript off stores the page it was sent from (the Referer)", async ({ browser }) => {
  const marker = uniqueMarker();
  const phone = uniquePhone();
  const context = await browser.newContext({ javaScriptEnabled: false });
  const visitor = await context.newPage();
  await visitor.goto("/contact?utm_source=flyer");
  await fillContactForm(visitor, marker, phone.display);
  await visitor.getByRole("button", { name: "Send Request" }).click();
  await expect(visitor.getByText("Message sent successfully!")).toBeVisible();
  await context.close();

  const page = await browser.newPage();
  await page.goto(`/admin?q=${phone.digits}`);
  await signIn(page, operator, PASSWORD);
  await page.goto(`/admin?q=${phone.digits}`);
  await page.getByRole("link", { name: `Maria ${marker}` }).click();
  const found = page.getByRole("region", { name: "How they found us" });
  await expect(found).toContainText("Landing page/contact");
  await expect(found).toContainText("utm_sourceflyer");
  await page.close();
});

/** A visitor's browser that records every Set-Cookie header the site answers with. */
async function visitorRecordingCookies(browser: Browser) {
  const context = await browser.newContext({ userAgent: VISITOR_USER_AGENT });
  const page = await context.newPage();
  await stayOnPageForTelLinks(page);
  const cookieHeaders: string[] = [];
  page.on("response", async (response) => {
    // A response still arriving as the test closes its context has nothing left to read.
    const header = await response.headerValue("set-cookie").catch(() => null);
    if (header) cookieHeaders.push(`${response.url()}: ${header}`);
  });
  return { context, page, cookieHeaders };
}

test("no page of the site, visited from an ad with a call tapped, sets a cookie for a visitor", async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page, cookieHeaders } = await visitorRecordingCookies(browser);
  for (const route of prerenderedRoutes()) {
    await page.goto(`${route}?utm_source=google&gclid=abc`);
    await page.locator("a[data-phone-placement]").first().click();
  }
  await page.goto("/no-such-page");
  expect(cookieHeaders).toEqual([]);
  expect(await context.cookies()).toEqual([]);
  await context.close();
});

test("sending the contact form sets no cookie for a visitor", async ({ browser }) => {
  const { context, page, cookieHeaders } = await visitorRecordingCookies(browser);
  await page.goto("/contact?utm_source=google&gclid=abc");
  await waitForHydration(page);
  await fillContactForm(page, uniqueMarker(), uniquePhone().display);
  const leadAnswered = page.waitForResponse((response) => response.url().endsWith("/functions/v1/send-contact-email"));
  // This test is about cookies, not the click: sent from the keyboard, since a pointer's click races the sticky header and
  // the bottom call bar, which Playwright finds over the button while it scrolls it into view (once lost in a full run).
  await page.getByRole("button", { name: "Send Request" }).press("Enter");
  expect((await leadAnswered).status()).toBe(200);
  expect(cookieHeaders).toEqual([]);
  expect(await context.cookies()).toEqual([]);
  await context.close();
});
