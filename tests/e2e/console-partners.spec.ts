import { expect, test } from "@playwright/test";
import { partnerPage, referralLinkSentTo } from "./referral-links.ts";
import { createOperator, signIn, uniqueOperatorEmail } from "./console.ts";
import { postContactRequest, postOptOutRequest, uniquePhone } from "./console-leads.ts";
import { expectFitsTheScreen, expectNoAxeViolations } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";

const PASSWORD = "correct horse battery staple";
test("at 390 px the inbox is one card per lead, each with a Call link, and never scrolls sideways", async ({
  page,
  baseURL,
}) => {
  const operator = uniqueOperatorEmail("cards");
  await createOperator(operator, PASSWORD);
  const marker = uniqueMarker();
  const phone = uniquePhone();
  await postContactRequest(page.request, baseURL!, { lastName: marker, phone: phone.display });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/admin?q=${marker}`);
  await signIn(page, operator, PASSWORD);

  const cards = page.getByRole("list", { name: "Contact requests" }).getByRole("listitem");
  await expect(cards).toHaveCount(1);
  await expect(cards.first().getByRole("link", { name: `Maria ${marker}`, exact: true })).toBeVisible();
  await expect(cards.first()).toContainText("Burst pipe");
  await expect(cards.first()).toContainText(/just now|min ago/);
  await expect(cards.first()).toContainText("New");
  await expect(cards.first().getByRole("link", { name: /^Call/ })).toHaveAttribute("href", `tel:${phone.digits}`);
  await expect(page.getByRole("table")).toBeHidden();
  await expectFitsTheScreen(page, "390 px");

  // The lead page keeps Call and Email in view while it scrolls.
  await cards
    .first()
    .getByRole("link", { name: `Maria ${marker}`, exact: true })
    .click();
  await page.mouse.wheel(0, 2_000);
  await expect(
    page.getByRole("navigation", { name: "Answer the visitor" }).getByRole("link", { name: "Call" }),
  ).toBeInViewport();
  await expect(
    page.getByRole("navigation", { name: "Answer the visitor" }).getByRole("link", { name: "Email" }),
  ).toBeInViewport();

  // Its "Status and note" link brings the follow-up form's heading to just below the bar, not under it (with less
  // motion asked for, the page jumps there at once instead of scrolling smoothly).
  const bar = page.getByRole("navigation", { name: "Answer the visitor" });
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.evaluate(() => window.scrollTo(0, 0));
  await bar.getByRole("link", { name: "Status and note" }).click();
  const heading = page.getByRole("heading", { name: "Follow-up" });
  await expect(heading).toBeInViewport();
  const barBottom = await bar.evaluate((element) => element.getBoundingClientRect().bottom);
  expect(await heading.evaluate((element) => element.getBoundingClientRect().top)).toBeGreaterThanOrEqual(barBottom);
});

test("an operator adds a partner and refers a lead; the partner accepts from the emailed link, and the lead page shows who has the job", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const operator = uniqueOperatorEmail("refer");
  await createOperator(operator, PASSWORD);
  const marker = uniqueMarker();
  const phone = uniquePhone();
  const leadId = await postContactRequest(page.request, baseURL!, {
    lastName: marker,
    phone: phone.display,
    email: `maria-${marker.toLowerCase()}@example.com`,
  });
  const partnerName = `Pat ${marker}`;
  const partnerEmail = `pat-${marker.toLowerCase()}@partner.example`;

  await page.goto("/admin/partners");
  await signIn(page, operator, PASSWORD);
  await page.getByLabel("Name").fill(partnerName);
  await page.getByLabel("Business").fill("Pat's Pipes");
  await page.getByLabel("Phone").fill("555-010-7788");
  await page.getByLabel("Email").fill(partnerEmail);
  await page.getByRole("checkbox", { name: "Drain Services" }).check();
  await page.getByLabel("ZIP codes").fill("10001, 10002 10003");
  // Sent twice by a double click, the form adds one partner, says so once, and is empty again.
  await page.getByRole("button", { name: "Save partner" }).dblclick();
  await expect(page.getByRole("status").getByText(`Partner ${partnerName} added.`)).toHaveCount(1);
  const row = page.getByRole("row", { name: new RegExp(partnerName) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Pat's Pipes");
  await expect(row).toContainText("None offered");
  await expect(page.getByLabel("Name")).toHaveValue("");
  // A reload is a page view, not the form sent again; the confirmation was said once.
  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(partnerName) })).toHaveCount(1);
  await expect(page.getByText(`Partner ${partnerName} added.`)).toHaveCount(0);
  // Another partner with the same email is refused, with a link to the one who has it.
  await page.getByLabel("Name").fill(`${partnerName} again`);
  await page.getByLabel("Business").fill("Pat's Pipes");
  await page.getByLabel("Phone").fill("555-010-7788");
  await page.getByLabel("Email").fill(partnerEmail.toUpperCase());
  await page.getByRole("checkbox", { name: "Drain Services" }).check();
  await page.getByRole("button", { name: "Save partner" }).click();
  await expect(page.getByText("Another active partner has this email.")).toBeVisible();
  await expect(page.getByRole("link", { name: `Open ${partnerName}` })).toHaveAttribute(
    "href",
    /^\/admin\/partners\/[0-9a-f-]{36}$/,
  );
  await expect(page.getByRole("row", { name: new RegExp(`${partnerName} again`) })).toHaveCount(0);

  await page.goto(`/admin/leads/${leadId}`);
  await page.getByLabel("ZIP", { exact: true }).fill("10002");
  await page.getByRole("button", { name: "Set ZIP" }).click();
  await expect(page.getByLabel("ZIP", { exact: true })).toHaveValue("10002");
  await page.getByLabel("Service", { exact: true }).selectOption("Drain Services");
  await page.getByRole("button", { name: "Show partners" }).click();
  await expect(page.getByText(`Pat's Pipes; serves 10002`)).toBeVisible();
  await page.getByRole("checkbox", { name: partnerName }).check();
  await page.getByRole("button", { name: "Send referral" }).click();
  await expect(page.getByRole("table", { name: /Referrals of this lead/ })).toContainText("Waiting");
  await expect(page.getByRole("region", { name: "History" })).toContainText(`Referral offered to ${partnerName}`);

  const link = await referralLinkSentTo(partnerEmail);
  expect(new URL(link).pathname).toMatch(/^\/r\//);
  const partner = await partnerPage(browser);
  const offered = await partner.goto(new URL(link).pathname);
  expect(offered?.status()).toBe(200);
  expect(offered?.headers()["x-robots-tag"]).toContain("noindex");
  expect(offered?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  await expect(partner.getByRole("heading", { level: 1 })).toContainText(partnerName);
  await expect(partner.getByRole("main")).toContainText("Water everywhere.");
  await expect(partner.getByRole("main")).toContainText("10002");
  await expect(partner.getByRole("main")).not.toContainText(`Maria ${marker}`);
  await expect(partner.getByRole("main")).not.toContainText(phone.display);
  await expectNoAxeViolations(partner);

  await partner.getByRole("button", { name: "Accept" }).click();
  await expect(partner.getByRole("heading", { name: "The job is yours" })).toBeVisible();
  await expect(partner.getByRole("link", { name: phone.display })).toHaveAttribute("href", `tel:${phone.digits}`);
  await expect(partner.getByRole("main")).toContainText(`Maria ${marker}`);
  await expectNoAxeViolations(partner);

  // The link was good for one answer.
  const reused = await partner.goto(new URL(link).pathname);
  expect(reused?.status()).toBe(410);
  await expect(partner.getByRole("heading", { name: "This link has already been used." })).toBeVisible();
  // The link's last three characters replaced by three others, whatever they were.
  const path = new URL(link).pathname;
  const forged = await partner.goto(`${path.slice(0, -3)}${path.endsWith("xyz") ? "abc" : "xyz"}`);
  expect(forged?.status()).toBe(404);
  await expect(partner.getByRole("heading", { name: "This link is not valid." })).toBeVisible();

  await page.reload();
  await expect(page.getByRole("region", { name: "Refer" }).getByRole("status")).toContainText(
    new RegExp(`${partnerName} \\(Pat's Pipes, 555-010-7788\\) has the job: answered in \\d+ s`),
  );
  await expect(page.getByRole("region", { name: "History" })).toContainText(`Referral accepted by ${partnerName}`);

  await page.goto("/admin/partners");
  await expect(page.getByRole("row", { name: new RegExp(partnerName) })).toContainText("100%");

  for (const path of ["/admin/partners", `/admin/leads/${leadId}`]) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(path);
      await expectNoAxeViolations(page);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${path} at ${width} px`,
      ).toBeLessThanOrEqual(width);
    }
  }
  await page.goto("/admin/partners");
  await page.getByRole("link", { name: partnerName }).click();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
  }
  // Deactivating asks first; "Cancel" leaves the partner active.
  await page.getByRole("button", { name: "Deactivate" }).click();
  await expect(page.getByText(`Deactivate ${partnerName}? They will be offered no new referrals.`)).toBeFocused();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByText("Active: offered in the Refer section of leads.")).toBeVisible();
  await page.getByRole("button", { name: "Deactivate" }).click();
  await page.getByRole("button", { name: "Yes, deactivate" }).click();
  await expect(page.getByRole("status")).toContainText(`${partnerName} deactivated: offered no new referrals.`);
  await page.getByRole("link", { name: "Partners", exact: true }).click();
  await expect(page.getByRole("row", { name: new RegExp(partnerName) })).toContainText("Deactivated");
  await partner.context().close();
});

test("a lead whose email matches a do-not-sell request is flagged, and is sent only once the operator confirms", async ({
  page,
  baseURL,
}) => {
  const operator = uniqueOperatorEmail("refer-opt-out");
  await createOperator(operator, PASSWORD);
  const marker = uniqueMarker();
  // postOptOutRequest asks for optout@example.com.
  const leadId = await postContactRequest(page.request, baseURL!, {
    lastName: marker,
    phone: uniquePhone().display,
    email: "optout@example.com",
  });
  await postOptOutRequest(page.request, baseURL!, `Maria ${marker}`);
  await page.goto("/admin/partners");
  await signIn(page, operator, PASSWORD);
  const partnerName = `Lee ${marker}`;
  await page.getByLabel("Name").fill(partnerName);
  await page.getByLabel("Business").fill("Lee Drains");
  await page.getByLabel("Phone").fill("555-010-1234");
  await page.getByLabel("Email").fill(`lee-${marker.toLowerCase()}@partner.example`);
  await page.getByRole("checkbox", { name: "Toilet Services" }).check();
  await page.getByRole("button", { name: "Save partner" }).click();
  await expect(page.getByRole("row", { name: new RegExp(partnerName) })).toBeVisible();

  await page.goto(`/admin/leads/${leadId}`);
  const refer = page.getByRole("region", { name: "Refer" });
  await expect(refer.getByRole("note")).toContainText("Opted out: do-not-sell request.");
  await refer.getByRole("checkbox", { name: partnerName }).check();
  await refer.getByRole("button", { name: "Send referral" }).click();
  await expect(refer).toContainText("confirm before sending");
  await expect(refer.getByRole("table", { name: /Referrals of this lead/ })).toHaveCount(0);

  await refer.getByRole("checkbox", { name: partnerName }).check();
  await refer.getByRole("checkbox", { name: /I confirm sending this referral/ }).check();
  await refer.getByRole("button", { name: "Send referral" }).click();
  await expect(refer.getByRole("table", { name: /Referrals of this lead/ })).toContainText(partnerName);
});

test("an operator sets a partner's calls, hours and fee, pauses and resumes them, and turns on routing, at 390 and 1280 px", async ({
  page,
}) => {
  const operator = uniqueOperatorEmail("partner-calls");
  await createOperator(operator, PASSWORD);
  const marker = uniqueMarker();
  const partnerName = `Rae ${marker}`;
  await page.goto("/admin/partners");
  await signIn(page, operator, PASSWORD);

  await page.getByLabel("Name").fill(partnerName);
  await page.getByLabel("Business").fill("Rae Rooter");
  await page.getByLabel("Phone").fill("555-010-4455");
  await page.getByLabel("Email").fill(`rae-${marker.toLowerCase()}@partner.example`);
  await page.getByRole("checkbox", { name: "Drain Services" }).check();
  await page.getByLabel("ZIP codes").fill("10001");
  await page.getByRole("checkbox", { name: "Send calls to this partner" }).check();
  // Bad input: each field says what is wrong, and nothing is saved.
  await page.getByLabel("Fee per call", { exact: true }).fill("-5");
  await page.getByLabel("Hours").fill("weekdays 9-5");
  await page.getByLabel("Calls per day").fill("0");
  await page.getByRole("button", { name: "Save partner" }).click();
  await expect(page.getByLabel("Hours")).toHaveAccessibleDescription(/"weekdays" is not a day/);
  await expect(page.getByLabel("Fee per call", { exact: true })).toHaveAccessibleDescription(/Enter an amount/);
  await expect(page.getByLabel("Calls per day")).toHaveAccessibleDescription(/Enter a whole number of calls/);
  await expect(page.getByRole("link", { name: partnerName })).toHaveCount(0);

  await page.getByLabel("Fee per call", { exact: true }).fill("35.50");
  await page.getByLabel("Hours").fill("Mon-Fri 07:00-19:00, Sat 08:00-12:00");
  await page.getByLabel("Calls per day").fill("8");
  await page.getByLabel("Priority").selectOption("1");
  await page.getByRole("button", { name: "Save partner" }).click();
  await expect(page.getByRole("status")).toContainText(`Partner ${partnerName} added.`);
  const row = page.getByRole("row", { name: new RegExp(partnerName) });
  await expect(row).toContainText("Priority 1, Mon-Fri 07:00-19:00, Sat 08:00-12:00");
  await expect(row).toContainText("Active");

  // The Partners page's routing settings: off until turned on.
  await expect(page.getByRole("checkbox", { name: "Route calls to partners" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Refer new leads automatically" })).not.toBeChecked();
  await page.getByRole("checkbox", { name: "Route calls to partners" }).check();
  await page.getByLabel("Default fee per call").fill("25.005");
  await page.getByRole("button", { name: "Save routing" }).click();
  await expect(page.getByLabel("Default fee per call")).toHaveAccessibleDescription(
    /USD amounts have at most 2 decimals/,
  );
  await page.goto("/admin/partners");
  await expect(page.getByRole("checkbox", { name: "Route calls to partners" })).not.toBeChecked();
  await page.getByRole("checkbox", { name: "Route calls to partners" }).check();
  await page.getByLabel("Default fee per call").fill("25");
  await page.getByRole("button", { name: "Save routing" }).click();
  await expect(page.getByRole("status")).toContainText(
    "Routing saved: calls routed to partners, default fee per call $25.00, new leads not referred automatically.",
  );
  await expect(page.getByRole("checkbox", { name: "Route calls to partners" })).toBeChecked();
  await expect(page.getByLabel("Default fee per call")).toHaveValue("25.00");

  await page.getByRole("link", { name: partnerName }).click();
  await expect(page.getByLabel("Fee per call", { exact: true })).toHaveValue("35.50");
  await expect(page.getByLabel("Hours")).toHaveValue("Mon-Fri 07:00-19:00, Sat 08:00-12:00");
  await expect(page.getByLabel("Calls per day")).toHaveValue("8");
  await expect(page.getByLabel("Priority")).toHaveValue("1");
  await expect(page.getByRole("checkbox", { name: "Send calls to this partner" })).toBeChecked();
  await expect(page.getByRole("main")).toContainText("Active: offered in the Refer section of leads, and sent calls.");

  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("status")).toContainText(`${partnerName} paused: offered no calls or referrals.`);
  await expect(page.getByRole("main")).toContainText(/Paused since \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByRole("status")).toContainText(`${partnerName} resumed.`);
  await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();

  await page.goto("/admin/partners");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }
  // Routing off again, as the other tests on this server expect.
  await page.getByRole("checkbox", { name: "Route calls to partners" }).uncheck();
  await page.getByRole("button", { name: "Save routing" }).click();
  await expect(page.getByRole("status")).toContainText("Routing saved: calls not routed");
});
