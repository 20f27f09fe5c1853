import { test } from "@playwright/test";
import { expectNoAxeViolations, waitForHydration } from "./helpers.ts";

// Every page of the site passes axe in its page-appearance test, in the same page load as its screenshots.
test("axe finds no violations on the not-found page, on a wide screen and scrolled down on a phone", async ({
  page,
}) => {
  await page.goto("/this-page-does-not-exist");
  await waitForHydration(page);
  await expectNoAxeViolations(page);
  // On a phone, scrolled down, the sticky call bar is showing too.
  await page.setViewportSize({ width: 390, height: 664 });
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.getByTestId("sticky-call-bar").waitFor({ state: "visible" });
  await expectNoAxeViolations(page);
});
