import { expect, test, type Page } from "@playwright/test";
import { sitePaths } from "../../app/content/site-pages.ts";
import { LOCATION_GENERIC_TEXT } from "../../app/lib/location.ts";
import { expectNoAxeViolations, mockLookups, scrollDownOnPhone, waitForHydration } from "./helpers.ts";

/**
 * What every public page shows, at a phone's width and a desktop's, stays pixel-identical to the committed
 * screenshots: changes to how the HTML and CSS are delivered (inlined styles, one icon sprite) must not change
 * a single pixel. The screenshots cover each page's first two screens. The first view, before the app's scripts
 * and the whole stylesheet arrive (with only the rules the page carries), looks exactly as the page does after.
 *
 * The hydrated page then passes axe, in the same page load: on a wide screen as it is, and on a phone scrolled
 * down, where the sticky call bar shows too. (The not-found page's axe test is in accessibility.spec.ts.)
 */
const widths = [390, 1280] as const;
const shownHeight = 1600;
const screenshotOptions = { animations: "disabled", caret: "hide" } as const;

/** The location line's text changes once the app has looked the location up: every screenshot shows the same. */
async function fixLocationText(page: Page) {
  await page
    .getByTestId("location-line")
    .locator("span")
    .evaluateAll((spans) => spans.forEach((span) => (span.textContent = "Springfield, Illinois")));
}

/** A page at `width` px, its first two screens shown. */
const showAt = (page: Page, width: (typeof widths)[number]) => page.setViewportSize({ width, height: shownHeight });

for (const path of sitePaths) {
  test(`${path} looks as it did at 390 and 1280 px, the same before its scripts and stylesheet arrive as after, and passes axe at both`, async ({
    page,
    context,
  }) => {
    // The location lookups fail, as they would without a network.
    await mockLookups(context, {});
    // The whole stylesheet and the app's scripts are held back until the first view has been compared.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/assets\//, async (route) => {
      await released;
      await route.continue();
    });
    const screenshot = (width: number) => `${path === "/" ? "home" : path.slice(1)}-${width}.png`;
    // One load shows both widths: the page has no script yet, and its layout follows the width alone.
    await showAt(page, widths[0]);
    await page.goto(path);
    await fixLocationText(page);
    for (const width of widths) {
      await showAt(page, width);
      await expect(page).toHaveScreenshot(screenshot(width), screenshotOptions);
    }
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();

    release();
    await waitForHydration(page);
    // The line's text is set when the lookups have failed, and not before.
    const locationLine = page.getByTestId("location-line");
    if ((await locationLine.count()) > 0) {
      await expect(locationLine.locator("span").first()).toHaveText(LOCATION_GENERIC_TEXT);
    }
    await fixLocationText(page);
    // The wide screen first: on the phone, the page is then scrolled down, where the sticky call bar shows too.
    for (const width of [...widths].reverse()) {
      await showAt(page, width);
      await expect(page).toHaveScreenshot(screenshot(width), screenshotOptions);
      if (width === 390) await scrollDownOnPhone(page);
      await expectNoAxeViolations(page);
    }
  });
}
