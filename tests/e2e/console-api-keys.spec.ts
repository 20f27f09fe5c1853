import { expect, test } from "@playwright/test";
import { createOperator, formFields, sendAgain, signIn, uniqueOperatorEmail } from "./console.ts";
import { expectFitsTheScreen, expectNoAxeViolations } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";

const PASSWORD = "correct horse battery staple";

test("an operator makes an API key (shown once), reads leads with it, and revokes it", async ({ page, baseURL }) => {
  const operator = uniqueOperatorEmail("api-keys");
  await createOperator(operator, PASSWORD);
  await page.goto("/admin/integrations");
  await signIn(page, operator, PASSWORD);
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();

  const name = `Zapier ${uniqueMarker()}`;
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("Name the key")).toBeVisible();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("leads:read").check();
  // A double click makes one key; the form sent again (a reload, the back button) makes none and shows no key.
  const createFields = await formFields(
    page.getByRole("button", { name: "Create key" }).locator("xpath=ancestor::form[1]"),
  );
  await page.getByRole("button", { name: "Create key" }).dblclick();
  const key = (await page.getByRole("status").locator("code").textContent()) ?? "";
  expect(key).toMatch(/^plk_/);
  await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveCount(1);
  await expect(page.getByLabel("Name")).toHaveValue("");
  await page.goto(await sendAgain(page, "/admin/api-keys", createFields));
  await expect(page.getByRole("status").getByText(`Key “${name}” created.`)).toHaveCount(1);
  await expect(page.getByText(key)).toHaveCount(0);
  await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveCount(1);

  const read = await page.request.get(`${baseURL}/api/v1/leads?limit=1`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  expect(read.status()).toBe(200);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/admin/api-keys");
    await expect(page.getByText(key)).toHaveCount(0);
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }
  // Revoking asks first; "Cancel" leaves the key working.
  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(page.getByText(`Revoke the key “${name}”?`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Yes, revoke" })).toHaveCSS(
    "background-color",
    // Tailwind's red-800.
    "oklch(0.444 0.177 26.899)",
  );
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("button", { name: `Revoke ${name}` })).toBeVisible();
  expect(
    (await page.request.get(`${baseURL}/api/v1/leads`, { headers: { Authorization: `Bearer ${key}` } })).status(),
  ).toBe(200);
  // Confirmed by a double click, then sent again: revoked once, said once.
  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  const yes = page.getByRole("button", { name: "Yes, revoke" });
  const revokeFields = await formFields(yes.locator("xpath=ancestor::form[1]"));
  await yes.dblclick();
  await expect(page.getByRole("status").getByText(`Key “${name}” revoked.`)).toHaveCount(1);
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Revoked");
  await page.goto(await sendAgain(page, "/admin/api-keys", revokeFields));
  await expect(page.getByText(`Key “${name}” revoked.`)).toHaveCount(1);
  await expect(page.getByText("That key is already revoked or gone.")).toHaveCount(0);
  const refused = await page.request.get(`${baseURL}/api/v1/leads`, { headers: { Authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
});
