import { expect, test } from "@playwright/test";
import { createOperator, signIn, uniqueOperatorEmail } from "./console.ts";
import { postContactRequest, postOptOutRequest, uniquePhone } from "./console-leads.ts";
import { expectNoAxeViolations } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";

const PASSWORD = "correct horse battery staple";

test("axe finds no violations on any console page, at 1280 px and on a 390 px phone", async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const operator = uniqueOperatorEmail("axe");
  await createOperator(operator, PASSWORD);
  const marker = uniqueMarker();
  const leadId = await postContactRequest(page.request, baseURL!, { lastName: marker, phone: uniquePhone().display });
  const doneId = await postOptOutRequest(page.request, baseURL!, `Done ${marker}`);
  await postOptOutRequest(page.request, baseURL!, `Open ${marker}`);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/admin/leads/${leadId}`);
  await signIn(page, operator, PASSWORD);
  // A history entry and a done opt-out, so every part of every page is there to check.
  await page.getByLabel("Status").selectOption("Contacted");
  await page.getByLabel("Note").fill("Called back.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("region", { name: "History" }).getByRole("listitem")).toHaveCount(1);
  await page.goto("/admin/opt-outs");
  await page.getByRole("button", { name: `Mark done: Done ${marker}` }).click();
  await expect(page.getByRole("table", { name: /done/ }).getByText(`Done ${marker}`)).toBeVisible();
  expect(doneId).toBeTruthy();

  for (const path of ["/admin", `/admin?q=${marker}`, `/admin/leads/${leadId}`, "/admin/opt-outs", "/admin/outbox"]) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(path);
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
      await expectNoAxeViolations(page);
      // Wide tables scroll inside their own region; the page itself never scrolls sideways.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${path} at ${width} px`,
      ).toBeLessThanOrEqual(width);
    }
  }
});
