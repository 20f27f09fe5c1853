import { expect, test, type Page } from "@playwright/test";
import { waitForHydration, expectNoAxeViolations } from "./helpers.ts";
import {
  LEAD_ENDPOINT,
  collectConsoleErrors,
  expectEmailContaining,
  holdLeadRequests,
  submitBeforeHydration,
  uniqueMarker,
} from "./lead-forms.ts";

const SUCCESS_TEXT =
  "Your opt-out request has been submitted successfully. We will process it in accordance with applicable laws and send you a confirmation email.";

async function fillValidRequest(page: Page, marker: string) {
  await page.getByLabel("Full Name").fill("Jordan Lee");
  await page.getByLabel("Email Address").fill(`${marker}@example.com`);
  await page.getByLabel("Additional Information").fill("Please do not sell my data.");
}

test.describe("do-not-sell page with JavaScript", () => {
  test("explains the right, then shows the form with its labels", async ({ page }) => {
    await page.goto("/do-not-sell");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Do Not Sell My Info");
    await expect(page.getByText(/California Consumer Privacy Act/)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Opt-Out Request Form" })).toBeVisible();
    await expect(page.getByLabel("Full Name")).toHaveAttribute("required", "");
    await expect(page.getByLabel("Email Address")).toHaveAttribute("type", "email");
    await expect(page.getByLabel("Additional Information")).not.toHaveAttribute("required", "");
    await expect(page.getByRole("button", { name: "Submit Opt-Out Request" })).toBeEnabled();
  });

  test("shows the spec's messages under the fields, tied with aria-describedby", async ({ page }) => {
    await page.goto("/do-not-sell");
    await waitForHydration(page);
    await page.getByLabel("Full Name").fill("J");
    await page.getByLabel("Email Address").fill("jordan@");
    await page.getByRole("button", { name: "Submit Opt-Out Request" }).click();

    const name = page.getByLabel("Full Name");
    await expect(name).toHaveAccessibleDescription("Name must be at least 2 characters");
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toBeFocused();
    await expect(page.getByLabel("Email Address")).toHaveAccessibleDescription("Please enter a valid email address");
    await expectNoAxeViolations(page);
  });

  test("submitting disables the button, then the success notice shows and the form resets", async ({ page }) => {
    await page.goto("/do-not-sell");
    await waitForHydration(page);
    const marker = uniqueMarker();
    const held = await holdLeadRequests(page);
    await fillValidRequest(page, marker);
    await page.getByRole("button", { name: "Submit Opt-Out Request" }).click();
    await expect(page.getByRole("button", { name: "Submitting Request..." })).toBeDisabled();
    held.release();

    const notice = page.getByRole("status");
    await expect(notice).toContainText("Request Submitted");
    await expect(notice).toContainText(SUCCESS_TEXT);
    await expect(page.getByRole("button", { name: "Submit Opt-Out Request" })).toBeEnabled();
    for (const label of ["Full Name", "Email Address", "Additional Information"])
      await expect(page.getByLabel(label)).toHaveValue("");
    expect(held.bodies).toEqual([
      { name: "Jordan Lee", email: `${marker}@example.com`, message: "Please do not sell my data.", type: "opt-out" },
    ]);
    await expectEmailContaining(marker);
    await expectNoAxeViolations(page);
  });

  test("after a refused submit made before hydration, a successful send empties the form", async ({ page }) => {
    await submitBeforeHydration(page);
    await page.goto("/do-not-sell");
    const marker = uniqueMarker();
    await fillValidRequest(page, marker);
    await page.getByLabel("Full Name").fill("J");
    await page.getByRole("button", { name: "Submit Opt-Out Request" }).click();

    // The server's page: its error, and the values it got back rendered as the fields' defaults.
    const name = page.getByLabel("Full Name");
    await expect(name).toHaveAccessibleDescription("Name must be at least 2 characters");
    await expect(page.getByLabel("Email Address")).toHaveAttribute("value", `${marker}@example.com`);
    await waitForHydration(page);
    await name.fill("Jordan Lee");
    await page.getByRole("button", { name: "Submit Opt-Out Request" }).click();

    await expect(page.getByRole("status")).toContainText("Request Submitted");
    for (const label of ["Full Name", "Email Address", "Additional Information"])
      await expect(page.getByLabel(label)).toHaveValue("");
    await expectEmailContaining(marker);
  });

  test("a failed request shows the error notice, logs it, and re-enables the button", async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.goto("/do-not-sell");
    await waitForHydration(page);
    await page.route(LEAD_ENDPOINT, (route) => route.fulfill({ status: 500, body: "Internal Server Error" }));
    await fillValidRequest(page, uniqueMarker());
    await page.getByRole("button", { name: "Submit Opt-Out Request" }).click();

    const notice = page.getByRole("alert");
    await expect(notice).toContainText("Error");
    await expect(notice).toContainText("There was an error submitting your request. Please try again.");
    await expect(page.getByRole("button", { name: "Submit Opt-Out Request" })).toBeEnabled();
    await expect(page.getByLabel("Full Name")).toHaveValue("Jordan Lee");
    expect(errors.some((text) => text.startsWith("Error submitting opt-out request:"))).toBe(true);
  });
});

test.describe("do-not-sell page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server shows the same messages, then the success notice", async ({ page }) => {
    await page.goto("/do-not-sell");
    await page.getByLabel("Full Name").fill("J");
    await page.getByLabel("Email Address").fill("jordan@example");
    await page.getByRole("button", { name: "Submit Opt-Out Request" }).click();

    await expect(page.getByLabel("Full Name")).toHaveAccessibleDescription("Name must be at least 2 characters");
    await expect(page.getByLabel("Email Address")).toHaveAccessibleDescription("Please enter a valid email address");
    await expect(page.getByLabel("Email Address")).toHaveValue("jordan@example");

    const marker = uniqueMarker();
    await fillValidRequest(page, marker);
    await page.getByRole("button", { name: "Submit Opt-Out Request" }).click();
    await expect(page.getByRole("status")).toContainText("Request Submitted");
    await expect(page.getByLabel("Full Name")).toHaveValue("");
    await expectEmailContaining(marker);
  });
});
