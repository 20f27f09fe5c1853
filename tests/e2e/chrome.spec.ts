import { expect, test } from "@playwright/test";
import { waitForHydration } from "./helpers.ts";

test.describe("shared chrome", () => {
  test("the top banner is a call link with a blinking dot that stops under reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto("/");
    const banner = page.locator('a[data-phone-placement="header_banner"]');
    await expect(banner).toHaveText("We Are Available Now");
    await expect(banner).toHaveAttribute("href", /^tel:\+\d+$/);
    const dot = banner.locator(".animate-blink");
    expect(await dot.evaluate((element) => getComputedStyle(element).animationName)).toBe("blink");
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await dot.evaluate((element) => getComputedStyle(element).animationName)).toBe("none");
  });

  test("the sticky header has the logo, company name and Call Now; the number shows on wide screens only", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    const header = page.locator("header");
    await expect(header.getByRole("link", { name: "Plumbline" })).toHaveAttribute("href", "/");
    const call = header.locator('a[data-phone-placement="header"]');
    await expect(call).toContainText("Call Now");
    await expect(header.getByTestId("header-phone-number")).toBeVisible();
    expect(await header.evaluate((element) => getComputedStyle(element).position)).toBe("sticky");
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(header.getByTestId("header-phone-number")).toBeHidden();
    await expect(call).toBeVisible();
  });

  test("the footer links to every policy page and the disclaimer toggles open and closed", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const footer = page.locator("footer");
    const links = footer.getByRole("navigation", { name: "Footer" }).getByRole("link");
    expect(await links.evaluateAll((items) => items.map((item) => item.getAttribute("href")))).toEqual([
      "/about",
      "/contact",
      "/quiz",
      "/privacy",
      "/ccpa-privacy",
      "/terms",
      "/do-not-sell",
    ]);
    await expect(footer.getByRole("link", { name: "Take Quiz" })).toHaveAttribute("href", "/quiz");

    const disclosure = footer.locator("details");
    const toggle = disclosure.locator("summary", { hasText: "Disclaimer" });
    const panel = footer.getByText("free referral service", { exact: false });
    await expect(disclosure).not.toHaveAttribute("open");
    await expect(panel).toBeHidden();
    await toggle.click();
    await expect(disclosure).toHaveAttribute("open", "");
    await expect(panel).toBeVisible();
    await toggle.click();
    await expect(disclosure).not.toHaveAttribute("open");
    await expect(panel).toBeHidden();
  });

  test("the bottom call bar shows above 300 px of scroll and hides again at 300 px or less", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 700 });
    await page.goto("/");
    await waitForHydration(page);
    const bar = page.getByTestId("sticky-call-bar");
    await expect(bar).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 300));
    await page.waitForFunction(() => window.scrollY === 300);
    await expect(bar).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 301));
    await expect(bar).toBeVisible();
    await expect(bar.locator('a[data-phone-placement="sticky_bottom_button"]')).toHaveAttribute("href", /^tel:/);
    await page.evaluate(() => window.scrollTo(0, 300));
    await expect(bar).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 2000));
    await expect(bar).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(bar).toBeHidden();
  });

  test("every prerendered page has its own title, description, canonical link and Open Graph tags", async ({
    page,
    request,
  }) => {
    const { prerenderedRoutes } = await import("./helpers.ts");
    const served: { path: string; html: string }[] = [];
    for (const path of prerenderedRoutes()) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      served.push({ path, html: await response.text() });
    }
    // The head as served is what search engines and link previews read: each page's HTML is parsed as it came,
    // with no script run and nothing else loaded.
    const heads = await page.evaluate((pages) => {
      const heads = [];
      for (const { path, html } of pages) {
        const parsed = new DOMParser().parseFromString(html, "text/html");
        const attribute = (selector: string, name: string) => parsed.querySelector(selector)?.getAttribute(name);
        heads.push({
          path,
          title: parsed.title,
          description: attribute('meta[name="description"]', "content"),
          canonical: attribute('link[rel="canonical"]', "href"),
          openGraphTitle: attribute('meta[property="og:title"]', "content"),
          openGraphUrls: parsed.querySelectorAll('meta[property="og:url"]').length,
        });
      }
      return heads;
    }, served);
    for (const { path, title, description, canonical, openGraphTitle, openGraphUrls } of heads) {
      expect(title, path).not.toBe("");
      expect(description, path).toMatch(/.{40,}/);
      expect(canonical, path).toMatch(new RegExp(`${path === "/" ? "/" : path}$`));
      expect(openGraphTitle, path).toBe(title);
      expect(openGraphUrls, path).toBe(1);
    }
    expect(new Set(heads.map((head) => head.title)).size).toBe(prerenderedRoutes().length);
  });
});
