import { test } from "@playwright/test";
import { expectNoAxeViolations, scrollDownOnPhone, waitForHydration } from "./helpers.ts";

// Every page of the site passes axe in its page-appearance test, in the same page load as its screenshots.
test("axe finds no violations on the not-found page, on a wide screen and scrolled down on a phone", async ({
  page,
}) => {
  await page.goto("/this-page-does-not-exist");
  await waitForHydration(page);
  await expectNoAxeViolations(page);
  await scrollDownOnPhone(page);
  await expectNoAxeViolations(page);
});
