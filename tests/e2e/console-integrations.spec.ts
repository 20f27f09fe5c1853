import { expect, test, type Page } from "@playwright/test";
import { createOperator, formFields, sendAgain, signIn, uniqueOperatorEmail } from "./console.ts";
import { postContactRequest, uniquePhone } from "./console-leads.ts";
import { expectFitsTheScreen, expectNoAxeViolations } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";
import { startWebhookReceiver } from "../webhook-receiver.ts";

const PASSWORD = "correct horse battery staple";
/** Tailwind's red-800: the buttons that take something away. */
const RED_800 = "oklch(0.444 0.177 26.899)";

/** The endpoint's signing secrets as "Reveal secret" shows them after the password: the current one, then the old. */
async function revealedSecrets(page: Page, url: string): Promise<string[]> {
  await page.goto("/admin/integrations");
  await page.getByRole("link", { name: `Reveal secret of ${url}` }).click();
  await page.getByLabel("Your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Reveal secret" }).click();
  const shown = page.getByRole("status").filter({ hasText: "The signing secret of" });
  await expect(shown).toBeVisible();
  return shown.locator("code").allTextContents();
}

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
    // A double click adds one endpoint, and its secret is shown once.
    await page.getByRole("button", { name: "Add endpoint" }).dblclick();
    const shown = page.getByRole("status");
    await expect(shown).toContainText("Copy its signing secret now");
    await expect(page.getByRole("heading", { level: 3, name: receiver.url })).toHaveCount(1);
    await expect(page.getByLabel("URL")).toHaveValue("");
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

    // "Send test event", double clicked and sent again: one webhook.test delivery, said once, signed like the
    // rest and listed once delivered.
    const sendTest = page.getByRole("button", { name: `Send test event to ${receiver.url}` });
    const testFields = await formFields(sendTest.locator("xpath=ancestor::form[1]"));
    await sendTest.dblclick();
    await expect(page.getByRole("status").getByText(`Test event queued for ${receiver.url}.`)).toHaveCount(1);
    await page.goto(await sendAgain(page, "/admin/integrations", testFields));
    await expect(page.getByText(`Test event queued for ${receiver.url}.`)).toHaveCount(1);
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
      await expectFitsTheScreen(page, `${width} px`);
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
  test.setTimeout(90_000);
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

    // "Roll secret" asks first; "Cancel" keeps the secret.
    await page.goto("/admin/integrations");
    const roll = page.getByRole("button", { name: `Roll secret of ${receiver.url}` });
    await expect(roll).toHaveCSS("background-color", RED_800);
    await roll.click();
    await expect(page.getByText(`Roll the signing secret of ${receiver.url}?`)).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoAxeViolations(page);
    }
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByText(`Roll the signing secret of ${receiver.url}?`)).toHaveCount(0);
    expect(await revealedSecrets(page, receiver.url)).toEqual([secret]);
    // Confirmed by a double click, then sent again: rolled once, the new one shown, the old one still signing.
    await roll.click();
    const yesRoll = page.getByRole("button", { name: "Yes, roll secret" });
    const rollFields = await formFields(yesRoll.locator("xpath=ancestor::form[1]"));
    await yesRoll.dblclick();
    await expect(page.getByRole("status")).toContainText("Secret rolled");
    const rolled = (await page.getByRole("status").locator("code").first().textContent()) ?? "";
    expect(rolled).toMatch(/^whsec_/);
    expect(rolled).not.toBe(secret);
    await page.goto(await sendAgain(page, "/admin/integrations", rollFields));
    await expect(page.getByText(rolled)).toHaveCount(0);
    expect(await revealedSecrets(page, receiver.url)).toEqual([rolled, secret]);
    // The receiver holding the old secret verifies.
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
      await expectFitsTheScreen(page, `${width} px`);
    }
    // "Resend", double clicked and sent again: the message sent once more, said once.
    const resend = page
      .getByRole("region", { name: `webhook.test to ${receiver.url}` })
      .getByRole("button", { name: "Resend", exact: true });
    const resendFields = await formFields(resend.locator("xpath=ancestor::form[1]"));
    await resend.dblclick();
    await expect(page.getByRole("status").getByText(`Delivery queued again for ${receiver.url}.`)).toHaveCount(1);
    await page.goto(await sendAgain(page, "/admin/integrations", resendFields));
    await expect(page.getByText(`Delivery queued again for ${receiver.url}.`)).toHaveCount(1);
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    await expect(deliveries.getByRole("row").filter({ hasText: "webhook.test" })).toHaveCount(2);

    // "Remove endpoint": asked first, saying what will happen; "Cancel" removes nothing.
    const remove = page.getByRole("button", { name: `Remove endpoint ${receiver.url}` });
    await expect(remove).toHaveCSS("background-color", RED_800);
    await remove.click();
    await expect(page.getByText(`Remove ${receiver.url}?`)).toBeVisible();
    await expect(page.getByText(/This cannot be undone/)).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoAxeViolations(page);
      await expectFitsTheScreen(page, `${width} px`);
    }
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("heading", { level: 3, name: receiver.url })).toBeVisible();
    await expect(page.getByText(`Remove ${receiver.url}?`)).toHaveCount(0);
    // Confirmed by a double click, then sent again: removed once, said once.
    await remove.click();
    const yesRemove = page.getByRole("button", { name: "Yes, remove endpoint" });
    await expect(yesRemove).toHaveCSS("background-color", RED_800);
    const removeFields = await formFields(yesRemove.locator("xpath=ancestor::form[1]"));
    await yesRemove.dblclick();
    await expect(page.getByRole("status").getByText(`Removed ${receiver.url}`)).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 3, name: receiver.url })).toHaveCount(0);
    await page.goto(await sendAgain(page, "/admin/integrations", removeFields));
    await expect(page.getByText(`Removed ${receiver.url}`)).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 3, name: receiver.url })).toHaveCount(0);
  } finally {
    await receiver.stop();
  }
});
