import { expect, test, type Page } from "@playwright/test";
import { totpCode } from "../../tooling/totp.ts";
import { createOperator, runCli, signIn, uniqueOperatorEmail } from "./console.ts";
import { expectNoAxeViolations } from "./helpers.ts";

const PASSWORD = "long enough passphrase";

// Every test stands for its own client address, so one test's failed codes never lock out another's.
test.beforeEach(async ({ page }) => {
  const address = `198.19.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": address });
});

/** Anything the page's Content-Security-Policy blocked, as the browser reports it. */
function cspViolations(page: Page): string[] {
  const reported: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) reported.push(message.text());
  });
  return reported;
}

/** Turns two-step sign-in on from the Account page with a code computed from the secret it shows. */
async function turnOnTwoStep(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.getByRole("link", { name: "Account" }).click();
  await expect(page).toHaveURL(/\/admin\/account$/);
  const section = page.getByRole("region", { name: "Two-step sign-in" });
  await expect(section.getByRole("img", { name: "QR code for your authenticator app" }).locator("svg")).toBeVisible();
  const shownSecret = async () => (await section.locator("code").first().textContent())!.replace(/\s/g, "");
  const secret = await shownSecret();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  // The app may have scanned it already: a reload shows the same secret.
  await page.reload();
  expect(await shownSecret()).toBe(secret);
  await section.getByLabel("Code", { exact: true }).fill(totpCode(secret));
  await section.getByRole("button", { name: "Turn on", exact: true }).click();
  await expect(section.getByRole("status")).toContainText("Two-step sign-in is on");
  const recoveryCodes = await section
    .getByRole("list", { name: "Recovery codes" })
    .getByRole("listitem")
    .allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  return { secret, recoveryCodes };
}

/** The password step, which now leads to the code step. */
async function signInWithPassword(page: Page, email: string) {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Verify" })).toBeVisible();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("turning two-step sign-in on; sign-in then needs a valid code", async ({ page }) => {
      const blocked = cspViolations(page);
      const email = uniqueOperatorEmail("two-step");
      await createOperator(email, PASSWORD);
      await signIn(page, email, PASSWORD);
      const { secret } = await turnOnTwoStep(page);
      await signOut(page);

      await signInWithPassword(page, email);
      // A wrong code is refused, and the console stays closed.
      const wrong = totpCode(secret, 1) === "000000" ? "111111" : "000000";
      await page.getByLabel("Code").fill(wrong);
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByRole("alert")).toContainText("That code is not right");
      await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
      // The app's next code signs in (this step's was used to turn it on, and is not accepted twice).
      await page.getByLabel("Code").fill(totpCode(secret, 1));
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
      await expect(page).toHaveURL(/\/admin$/);
      expect(blocked).toEqual([]);
    });
  });
}

test("a recovery code signs in once", async ({ page }) => {
  const email = uniqueOperatorEmail("recovery");
  await createOperator(email, PASSWORD);
  await signIn(page, email, PASSWORD);
  const { recoveryCodes } = await turnOnTwoStep(page);
  await signOut(page);

  await signInWithPassword(page, email);
  await page.getByLabel("Code").fill(recoveryCodes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await signOut(page);

  await signInWithPassword(page, email);
  await page.getByLabel("Code").fill(recoveryCodes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right, or it has been used");
  await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
});

test("npm run operator -- reset-2fa lets an operator who lost their phone sign in with the password", async ({
  page,
}) => {
  const email = uniqueOperatorEmail("reset");
  await createOperator(email, PASSWORD);
  await signIn(page, email, PASSWORD);
  await turnOnTwoStep(page);
  await signOut(page);
  const reset = await runCli("operator", ["reset-2fa", email]);
  expect(reset.code, reset.stderr).toBe(0);
  expect(reset.stdout).toContain(`Two-step sign-in for ${email} is off`);
  await signIn(page, email, PASSWORD);
});

test("axe finds no violations on the account page and the code step, at 1280 and 390 px", async ({ page }) => {
  test.setTimeout(60_000);
  const email = uniqueOperatorEmail("axe-two-step");
  await createOperator(email, PASSWORD);
  await signIn(page, email, PASSWORD);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/admin/account");
    await expect(page.getByRole("button", { name: "Turn on", exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `account at ${width} px`,
    ).toBeLessThanOrEqual(width);
  }
  await turnOnTwoStep(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    // The recovery codes, shown once, then the page as it stays.
    if (width === 1280) await expectNoAxeViolations(page);
    await page.goto("/admin/account");
    await expect(page.getByText("Two-step sign-in is on")).toBeVisible();
    await expectNoAxeViolations(page);
  }
  await signOut(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await signInWithPassword(page, email);
    await expectNoAxeViolations(page);
  }
});
