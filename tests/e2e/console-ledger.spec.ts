import { expect, test } from "@playwright/test";
import { createOperator, signIn, uniqueOperatorEmail } from "./console.ts";
import { postContactRequest, uniquePhone } from "./console-leads.ts";
import { expectFitsTheScreen, expectNoAxeViolations, waitForHydration } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";
import { emailTextsTo, partnerPage, referralLinkSentTo } from "./referral-links.ts";

const PASSWORD = "correct horse battery staple";

test("a partner with a fee accepts a referral, returns it, the operator approves, records a payment, and the balance follows", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const operator = uniqueOperatorEmail("ledger");
  await createOperator(operator, PASSWORD);
  const marker = uniqueMarker();
  const leadId = await postContactRequest(page.request, baseURL!, {
    lastName: marker,
    phone: uniquePhone().display,
    email: `maria-${marker.toLowerCase()}@example.com`,
  });
  const partnerName = `Lee ${marker}`;
  const partnerEmail = `lee-${marker.toLowerCase()}@partner.example`;

  await page.goto("/admin/partners");
  await signIn(page, operator, PASSWORD);
  // Hydration sets each field to the page's own value: the form is filled once it has happened.
  await waitForHydration(page);
  const addForm = page.getByRole("region", { name: "Add a partner" });
  await addForm.getByLabel("Fee per referral").fill("45.505");
  await addForm.getByLabel("Name").fill(partnerName);
  await addForm.getByLabel("Business").fill("Lee Drains");
  await addForm.getByLabel("Phone").fill("555-010-7799");
  await addForm.getByLabel("Email").fill(partnerEmail);
  await addForm.getByRole("checkbox", { name: "Drain Services" }).check();
  await addForm.getByLabel("ZIP codes").fill("10002");
  await addForm.getByRole("button", { name: "Save partner" }).click();
  await expect(page.getByText("USD amounts have at most 2 decimals.")).toBeVisible();
  await waitForHydration(page);
  await page.getByRole("region", { name: "Add a partner" }).getByLabel("Fee per referral").fill("45.50");
  await page.getByRole("region", { name: "Add a partner" }).getByRole("button", { name: "Save partner" }).click();
  await expect(page.getByRole("row", { name: new RegExp(partnerName) })).toContainText("$0.00");

  await page.goto(`/admin/leads/${leadId}`);
  await page.getByLabel("ZIP", { exact: true }).fill("10002");
  await page.getByRole("button", { name: "Set ZIP" }).click();
  await page.getByLabel("Service", { exact: true }).selectOption("Drain Services");
  await page.getByRole("button", { name: "Show partners" }).click();
  await page.getByRole("checkbox", { name: partnerName }).check();
  await page.getByRole("button", { name: "Send referral" }).click();
  await expect(page.getByRole("table", { name: /Referrals of this lead/ })).toContainText("Waiting");

  const link = new URL(await referralLinkSentTo(partnerEmail)).pathname;
  const partner = await partnerPage(browser);
  // The offer says what accepting costs, in its email and on its page; the acceptance, what it charged.
  expect((await emailTextsTo(partnerEmail, /^New job/))[0]).toContain("Fee if you accept: $45.50.");
  await partner.goto(link);
  await expect(partner.getByText("Fee if you accept: $45.50")).toBeVisible();
  await partner.getByRole("button", { name: "Accept" }).click();
  await expect(partner.getByRole("heading", { name: "The job is yours" })).toBeVisible();
  await expect(partner.getByText("Charged: $45.50, on your next monthly statement.")).toBeVisible();
  expect((await emailTextsTo(partnerEmail, /^The job is yours/))[0]).toContain("Charged: $45.50");
  const returnSection = partner.getByRole("region", { name: "Return this lead" });
  await expect(returnSection).toBeVisible();
  await expectNoAxeViolations(partner);
  await returnSection.getByRole("button", { name: "Send return" }).click();
  await expect(partner.getByRole("alert")).toHaveText("Choose a reason from the list.");
  await partner.getByLabel("Reason").selectOption("Wrong number");
  await partner.getByRole("button", { name: "Send return" }).click();
  await expect(partner.getByRole("status")).toContainText("You returned this lead (Wrong number)");

  await page.goto("/admin/partners");
  await expect(page.getByRole("row", { name: new RegExp(partnerName) })).toContainText("$45.50");
  await page.getByRole("link", { name: "Returns" }).click();
  await expect(page.getByRole("link", { name: "Returns" })).toContainText("1 open");
  const open = page.getByRole("list", { name: "Open returns, oldest first" }).getByRole("listitem");
  const row = open.filter({ hasText: partnerName });
  await expect(row).toContainText("Wrong number");
  await expect(row).toContainText("$45.50");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }
  // Approving and denying ask first, saying what will happen; "Cancel" decides nothing.
  await row.getByRole("button", { name: `Approve the return from ${partnerName}` }).click();
  await expect(
    row.getByText(new RegExp(`^Credit ${partnerName} \\$45\\.50 for the job of [A-Z][a-z]{2} \\d{1,2}\\?$`)),
  ).toBeFocused();
  await row.getByRole("link", { name: "Cancel" }).click();
  await row.getByLabel("Reason for denying").fill("The number worked when we called.");
  await row.getByRole("button", { name: `Deny the return from ${partnerName}` }).click();
  await expect(row).toContainText(`Deny the return from ${partnerName}`);
  await expect(row).toContainText("and keep the $45.50 charge? They are emailed your reason.");
  await row.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("table", { name: /^Decided returns/ })).toHaveCount(0);
  await row.getByRole("button", { name: `Approve the return from ${partnerName}` }).click();
  await row.getByRole("button", { name: "Yes, approve" }).click();
  await expect(page.getByText(`Return approved: ${partnerName} credited $45.50 and emailed.`)).toHaveRole("status");
  const decided = page.getByRole("table", { name: /^Decided returns/ });
  await expect(decided).toContainText("Approved");
  expect((await emailTextsTo(partnerEmail, /^Your lead return was approved/))[0]).toContain(
    "$45.50 is credited to your balance",
  );
  // The lead's page shows the charge, the return and the credit, each with its partner.
  await decided.getByRole("link", { name: /Burst pipe/ }).click();
  const money = page.getByRole("table", { name: /^Charges, returns and credits/ });
  await expect(money.getByRole("row")).toHaveCount(4);
  await expect(money.getByRole("row", { name: /Charge/ })).toContainText("$45.50");
  await expect(money.getByRole("row", { name: /Return \(Wrong number\): approved/ })).toContainText(partnerName);
  await expect(money.getByRole("row", { name: /Credit/ })).toContainText("-$45.50");
  await expect(money.getByRole("link", { name: partnerName }).first()).toHaveAttribute("href", /^\/admin\/partners\//);
  await page.goBack();
  await partner.reload();
  await expect(partner.getByRole("status")).toContainText("Your return was approved");

  await page.getByRole("link", { name: "Partners" }).click();
  await page.getByRole("link", { name: partnerName }).click();
  const balance = page.getByRole("region", { name: "Balance" });
  await expect(balance).toContainText("$0.00");
  await expect(balance.getByRole("table", { name: /^Ledger/ })).toContainText("Charge");
  await expect(balance.getByRole("table", { name: /^Ledger/ })).toContainText("Credit");

  const payment = page.getByRole("region", { name: "Record payment" });
  await payment.getByLabel("Amount").fill("-20");
  await payment.getByLabel("Date").fill("2026-11-20");
  await payment.getByLabel("Method").fill("Check");
  await payment.getByRole("button", { name: "Record payment" }).click();
  await expect(page.getByText("Enter an amount, like 125 or 125.50, with no sign or currency symbol.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Balance" })).toContainText("$0.00");
  await page.getByRole("region", { name: "Record payment" }).getByLabel("Amount").fill("20");
  await page.getByRole("region", { name: "Record payment" }).getByLabel("Date").fill("2026-11-20");
  await page.getByRole("region", { name: "Record payment" }).getByLabel("Method").fill("Check");
  await page.getByRole("region", { name: "Record payment" }).getByLabel("Reference").fill("1001");
  await page.getByRole("region", { name: "Record payment" }).getByRole("button", { name: "Record payment" }).dblclick();
  await expect(page.getByRole("status").getByText(`Payment of $20.00 from ${partnerName} recorded.`)).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Balance" })).toContainText("$20.00 in the partner's favour");
  await expect(page.getByRole("table", { name: /^Ledger/ })).toContainText("Check · 1001");
  await expect(page.getByRole("region", { name: "Record payment" }).getByLabel("Amount")).toHaveValue("");
  // The same payment again (another tab, say) is refused unless confirmed.
  const again = page.getByRole("region", { name: "Record payment" });
  await again.getByLabel("Amount").fill("20");
  await again.getByLabel("Date").fill("2026-11-21");
  await again.getByLabel("Method").fill("Check");
  await again.getByLabel("Reference").fill("1001");
  await again.getByRole("button", { name: "Record payment" }).click();
  await expect(again).toContainText(
    `Already recorded: a payment of $20.00 from ${partnerName} with reference 1001, dated 2026-11-20. Record a second one?`,
  );
  await again.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("table", { name: /^Ledger/ }).getByRole("row", { name: /Payment/ })).toHaveCount(1);
  // An adjustment asks first too.
  const adjustment = page.getByRole("region", { name: "Record adjustment" });
  await adjustment.getByLabel("Amount").fill("-5");
  await adjustment.getByLabel("Date").fill("2026-11-22");
  await adjustment.getByLabel("Internal note").fill("Goodwill");
  await adjustment.getByRole("button", { name: "Record adjustment" }).click();
  await expect(adjustment).toContainText(`Take $5.00 off what ${partnerName} owes, dated 2026-11-22?`);
  await adjustment.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("table", { name: /^Ledger/ })).not.toContainText("Adjustment");
  await adjustment.getByLabel("Amount").fill("-5");
  await adjustment.getByLabel("Date").fill("2026-11-22");
  await adjustment.getByLabel("Internal note").fill("Goodwill");
  await adjustment.getByRole("button", { name: "Record adjustment" }).click();
  await adjustment.getByRole("button", { name: "Yes, record adjustment" }).click();
  await expect(page.getByText("Adjustment of -$5.00 recorded.")).toHaveRole("status");
  await expect(page.getByRole("region", { name: "Balance" })).toContainText("$25.00 in the partner's favour");
  // Each entry shows the balance after it.
  await expect(page.getByRole("table", { name: /^Ledger/ }).getByRole("row", { name: /Charge/ })).toContainText(
    "$45.50 owed by the partner",
  );
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }
});
