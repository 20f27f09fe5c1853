import { expect, test } from "@playwright/test";
import { createOperator, signIn, uniqueOperatorEmail } from "./console.ts";
import { postContactRequest, uniquePhone } from "./console-leads.ts";
import { expectNoAxeViolations } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";
import { startWebhookReceiver } from "../webhook-receiver.ts";

const PASSWORD = "correct horse battery staple";

test("an operator adds a webhook endpoint, a lead arrives signed, and its delivery is listed", async ({
  page,
  baseURL,
}) => {
  // The receiver listens on loopback over http: the test server runs with WEBHOOK_ALLOW_PRIVATE=true.
  const receiver = await startWebhookReceiver();
  try {
    const operator = uniqueOperatorEmail("integrations");
    await createOperator(operator, PASSWORD);
    await page.goto("/admin/integrations");
    await signIn(page, operator, PASSWORD);
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Integrations" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Integrations" })).toBeVisible();

    await page.getByLabel("URL").fill(receiver.url);
    await page.getByRole("checkbox", { name: "call.completed" }).uncheck();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const shown = page.getByRole("status");
    await expect(shown).toContainText("Copy its signing secret now");
    const secret = (await shown.locator("code").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;

    const marker = uniqueMarker();
    await postContactRequest(page.request, baseURL!, { lastName: marker, phone: uniquePhone().display });
    await expect
      .poll(() => receiver.received.some((delivery) => delivery.payload.data.last_name === marker), { timeout: 10_000 })
      .toBe(true);
    expect(receiver.unverified).toBe(0);

    await page.goto("/admin/integrations");
    // The secret was shown once, in the answer to "Add endpoint".
    await expect(page.getByText(secret)).toHaveCount(0);
    const endpoint = page.getByRole("region", { name: `Recent deliveries to ${receiver.url}` });
    const row = endpoint.getByRole("row").filter({ hasText: "lead.created" }).first();
    await expect(row).toContainText("200");
    await expect(row).toContainText("Delivered");
    await expect(row.getByRole("button", { name: /^Resend lead\.created/ })).toBeVisible();

    // "Send test event": a webhook.test delivery, signed like the rest and listed once delivered.
    await page.getByRole("button", { name: `Send test event to ${receiver.url}` }).click();
    await expect
      .poll(() => receiver.received.some((delivery) => delivery.payload.type === "webhook.test"), { timeout: 10_000 })
      .toBe(true);
    await expect
      .poll(
        async () => {
          await page.reload();
          return endpoint.getByRole("row").filter({ hasText: "webhook.test" }).filter({ hasText: "Delivered" }).count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoAxeViolations(page);
      // The deliveries' table scrolls inside its own region; the page itself never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  } finally {
    await receiver.stop();
  }
});

test('"Add endpoint" with something that is not a URL shows the error next to the field and adds nothing', async ({
  page,
}) => {
  const operator = uniqueOperatorEmail("integrations-form");
  await createOperator(operator, PASSWORD);
  await page.goto("/admin/integrations");
  await signIn(page, operator, PASSWORD);
  await page.getByLabel("URL").fill("not a url");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter a full URL")).toBeVisible();
  await expect(page.getByRole("status")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("an operator reveals the secret with their password, rolls it, reads a delivery's attempts, resends it, and removes the endpoint after confirming", async ({
  page,
}) => {
  const receiver = await startWebhookReceiver();
  try {
    const operator = uniqueOperatorEmail("integrations-manage");
    await createOperator(operator, PASSWORD);
    await page.goto("/admin/integrations");
    await signIn(page, operator, PASSWORD);
    await page.getByLabel("URL").fill(receiver.url);
    // Only statement.issued, which no other test makes: the leads other tests send meanwhile do not reach it.
    for (const box of await page.getByRole("group", { name: "Events" }).getByRole("checkbox").all())
      await box.uncheck();
    await page.getByRole("checkbox", { name: "statement.issued" }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = (await page.getByRole("status").locator("code").textContent()) ?? "";
    receiver.secret = secret;

    // A second endpoint for the same URL is refused, in words.
    await page.goto("/admin/integrations");
    await page.getByLabel("URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByText("An endpoint with this URL is already listed")).toBeVisible();
    await page.goto("/admin/integrations");
    await expect(page.getByRole("heading", { level: 3, name: receiver.url })).toHaveCount(1);

    // "Reveal secret": only after the password, typed again.
    await page.getByRole("link", { name: `Reveal secret of ${receiver.url}` }).click();
    await page.getByLabel("Your password").fill("not my password at all");
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await expect(page.getByText("That is not your password.")).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoAxeViolations(page);
    }
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await expect(page.getByRole("status").locator("code")).toHaveText(secret);

    // "Roll secret": the new one shown, the old one still signing; the receiver holding the old one verifies.
    await page.goto("/admin/integrations");
    await page.getByRole("button", { name: `Roll secret of ${receiver.url}` }).click();
    await expect(page.getByRole("status")).toContainText("Secret rolled");
    const rolled = (await page.getByRole("status").locator("code").first().textContent()) ?? "";
    expect(rolled).toMatch(/^whsec_/);
    expect(rolled).not.toBe(secret);
    await page.goto("/admin/integrations");
    await page.getByRole("button", { name: `Send test event to ${receiver.url}` }).click();
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    expect(receiver.unverified).toBe(0);

    // The delivery's page: the request's body and its attempt with the answer; "Resend" sends the same message.
    const deliveries = page.getByRole("region", { name: `Recent deliveries to ${receiver.url}` });
    await expect
      .poll(
        async () => {
          await page.reload();
          return deliveries.getByRole("link", { name: /^Attempts of webhook\.test/ }).count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    await deliveries.getByRole("link", { name: /^Attempts of webhook\.test/ }).click();
    await expect(page.getByRole("heading", { level: 2, name: `webhook.test to ${receiver.url}` })).toBeVisible();
    await expect(page.getByText('"type":"webhook.test"').or(page.getByText('"type": "webhook.test"'))).toBeVisible();
    await expect(page.getByRole("region", { name: "Attempts" }).getByRole("row").nth(1)).toContainText("200");
    await expect(page.getByRole("region", { name: "Attempts" })).toContainText("ok");
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    await page
      .getByRole("region", { name: `webhook.test to ${receiver.url}` })
      .getByRole("button", { name: "Resend", exact: true })
      .click();
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);

    // "Remove endpoint": a second step that says what will happen; nothing is removed until it is confirmed.
    await page.getByRole("link", { name: `Remove endpoint ${receiver.url}` }).click();
    await expect(page.getByRole("heading", { level: 2, name: `Remove ${receiver.url}?` })).toBeVisible();
    await expect(page.getByText("This cannot be undone")).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoAxeViolations(page);
    }
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("heading", { level: 3, name: receiver.url })).toBeVisible();
    await page.getByRole("link", { name: `Remove endpoint ${receiver.url}` }).click();
    await page.getByRole("button", { name: "Remove endpoint" }).click();
    await expect(page.getByRole("status")).toContainText(`Removed ${receiver.url}`);
    await expect(page.getByRole("heading", { level: 3, name: receiver.url })).toHaveCount(0);
  } finally {
    await receiver.stop();
  }
});
