import { test } from "@playwright/test";
import { expectNoAxeViolations, prerenderedRoutes, waitForHydration } from "./helpers.ts";

for (const path of [...prerenderedRoutes(), "/this-page-does-not-exist"]) {
  test(`axe finds no violations on ${path}, on a wide screen and scrolled down on a phone`, async ({ page }) => {
    await page.goto(path);
    await waitForHydration(page);
    await expectNoAxeViolations(page);
    // On a phone, scrolled down, the sticky call bar is showing too.
    await page.setViewportSize({ width: 390, height: 664 });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByTestId("sticky-call-bar").waitFor({ state: "visible" });
    await expectNoAxeViolations(page);
  });
}
