import { expect, test, type Browser, type Page } from "@playwright/test";
import { shownSlide, waitForHydration } from "./helpers.ts";

/**
 * The disclosure, the FAQ accordion and the carousel work with scripting off, and while the app's
 * scripts have not loaded yet (they start after the load event and may take long on a phone).
 */
const withoutScripts: { name: string; open: (browser: Browser) => Promise<Page> }[] = [
  {
    name: "with JavaScript disabled",
    open: async (browser) => (await browser.newContext({ javaScriptEnabled: false })).newPage(),
  },
  {
    name: "before the app's scripts have loaded",
    open: async (browser) => {
      const page = await (await browser.newContext()).newPage();
      await page.route("**/assets/*.js", () => {});
      return page;
    },
  },
];

for (const { name, open } of withoutScripts) {
  test.describe(name, () => {
    test("the footer disclaimer opens and closes", async ({ browser }) => {
      const page = await open(browser);
      await page.goto("/");
      const footer = page.locator("footer");
      const toggle = footer.locator("summary", { hasText: "Disclaimer" });
      const panel = footer.getByText("free referral service", { exact: false });
      await expect(panel).toBeHidden();
      await toggle.click();
      await expect(panel).toBeVisible();
      await toggle.click();
      await expect(panel).toBeHidden();
      await page.context().close();
    });

    test("on the sewer page, opening one FAQ answer closes the open one", async ({ browser }) => {
      const page = await open(browser);
      await page.goto("/sewer-services");
      const faq = page.getByRole("region", { name: "Sewer Line FAQs", exact: true });
      const items = faq.locator("details");
      await expect(items).toHaveCount(5);
      const answer = (index: number) => items.nth(index).locator("summary + div");
      await expect(answer(0)).toBeVisible();
      await items.nth(2).locator("summary").click();
      await expect(answer(2)).toBeVisible();
      await expect(answer(2)).toContainText("Trenchless pipe lining");
      await expect(answer(0)).toBeHidden();
      await items.nth(2).locator("summary").click();
      await expect(answer(2)).toBeHidden();
      await page.context().close();
    });

    test("every testimonial can be reached through its dot", async ({ browser }) => {
      const page = await open(browser);
      await page.goto("/");
      const carousel = page.getByRole("region", { name: "What our customers say" });
      const dots = carousel.getByRole("link", { name: /Show testimonial/ });
      await expect(dots).toHaveCount(3);
      expect(await shownSlide(carousel)).toBe(0);
      for (const index of [2, 1, 0]) {
        await dots.nth(index).click();
        await expect.poll(() => shownSlide(carousel)).toBe(index);
      }
      await page.context().close();
    });
  });
}

test("without JavaScript, previous and next (which need scripts) are not offered", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  const carousel = page.getByRole("region", { name: "What our customers say" });
  await expect(carousel.getByRole("button", { name: "Previous testimonial" })).toBeHidden();
  await expect(carousel.getByRole("button", { name: "Next testimonial" })).toBeHidden();
  await context.close();
});

test("a Disclaimer click in the same task as the load event opens it, and hydration keeps it open", async ({
  page,
}) => {
  await page.addInitScript(() => {
    window.addEventListener("load", () => {
      document.querySelector<HTMLElement>("footer summary")!.click();
    });
  });
  await page.goto("/");
  const panel = page.locator("footer").getByText("free referral service", { exact: false });
  await expect(panel).toBeVisible();
  await waitForHydration(page);
  await expect(panel).toBeVisible();
});

test("a testimonial chosen before hydration stays shown after it, with its dot marked", async ({ page }) => {
  let releaseScripts!: () => void;
  const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
  await page.route("**/assets/*.js", async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.goto("/");
  const carousel = page.getByRole("region", { name: "What our customers say" });
  await carousel.getByRole("link", { name: "Show testimonial 3" }).click();
  await expect.poll(() => shownSlide(carousel)).toBe(2);
  releaseScripts();
  await waitForHydration(page);
  expect(await shownSlide(carousel)).toBe(2);
  await expect(carousel.getByRole("link", { name: "Show testimonial 3" })).toHaveAttribute("aria-current", "true");
  await carousel.getByRole("button", { name: "Next testimonial" }).click();
  await expect.poll(() => shownSlide(carousel)).toBe(0);
});

test("an FAQ answer opened before hydration stays the open one after it", async ({ page }) => {
  let releaseScripts!: () => void;
  const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
  await page.route("**/assets/*.js", async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.goto("/sewer-services");
  const items = page.getByRole("region", { name: "Sewer Line FAQs", exact: true }).locator("details");
  const openItems = () => items.evaluateAll((details) => details.map((item) => (item as HTMLDetailsElement).open));
  await items.nth(3).locator("summary").click();
  expect(await openItems()).toEqual([false, false, false, true, false]);
  releaseScripts();
  await waitForHydration(page);
  expect(await openItems()).toEqual([false, false, false, true, false]);
  await items.nth(1).locator("summary").click();
  expect(await openItems()).toEqual([false, true, false, false, false]);
});
