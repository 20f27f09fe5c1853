import { expect, test } from "@playwright/test";
import { sitePaths } from "../../app/content/site-pages.ts";
import { mockLookups, waitForHydration } from "./helpers.ts";

/**
 * What every public page shows, at a phone's width and a desktop's, stays pixel-identical to the committed
 * screenshots: changes to how the HTML and CSS are delivered (inlined styles, one icon sprite) must not change
 * a single pixel. The screenshots cover each page's first two screens.
 */
const widths = [390, 1280] as const;
const shownHeight = 1600;

for (const width of widths) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: shownHeight } });

    for (const path of sitePaths) {
      test(`${path} looks as it did`, async ({ page, context }) => {
        // The location lookups fail, so the location line shows its fixed fallback.
        await mockLookups(context, {});
        await page.goto(path);
        await waitForHydration(page);
        const name = path === "/" ? "home" : path.slice(1);
        await expect(page).toHaveScreenshot(`${name}-${width}.png`, { animations: "disabled", caret: "hide" });
      });
    }
  });
}
