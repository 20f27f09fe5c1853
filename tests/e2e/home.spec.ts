import { expect, test } from "@playwright/test";
import {
  clickVisibleCallLinks,
  recordAnalytics,
  recordedPhoneClicks,
  shownSlide,
  waitForHydration,
} from "./helpers.ts";

test.describe("home page", () => {
  test("the tab's icon comes with the page, not as a request of its own", async ({ page }) => {
    const iconRequests: string[] = [];
    page.on("request", (request) => {
      if (/favicon/.test(request.url())) iconRequests.push(request.url());
    });
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", /^data:image\/svg\+xml,<svg /);
    expect(iconRequests).toEqual([]);
  });

  test("the page paints before its scripts are asked for, and they start once the whole stylesheet is in", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    const timings = await page.evaluate(() => {
      const firstPaint = performance.getEntriesByName("first-contentful-paint")[0]!.startTime;
      const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      const scripts = resources.filter((entry) => entry.initiatorType === "script" || entry.name.endsWith(".js"));
      const stylesheet = resources.find((entry) => /\/assets\/app-[\w-]+\.css$/.test(entry.name))!;
      return {
        firstPaint,
        firstScriptAsked: Math.min(...scripts.map((entry) => entry.startTime)),
        stylesheetIn: stylesheet.responseEnd,
      };
    });
    expect(timings.firstScriptAsked).toBeGreaterThanOrEqual(timings.firstPaint);
    expect(timings.firstScriptAsked).toBeGreaterThanOrEqual(timings.stylesheetIn);
  });

  test("React Router's own inline scripts (scroll restoration, its context and route data) run only after the first paint", async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const seen = { contextAtFirstPaint: "not painted", historyKeyAtFirstPaint: "not painted" };
      Object.assign(window, { __seen: seen });
      new PerformanceObserver((entries) => {
        if (entries.getEntriesByName("first-contentful-paint").length === 0) return;
        seen.contextAtFirstPaint = typeof (window as { __reactRouterContext?: unknown }).__reactRouterContext;
        seen.historyKeyAtFirstPaint = typeof (history.state as { key?: unknown } | null)?.key;
      }).observe({ type: "paint", buffered: true });
    });
    await page.goto("/");
    await waitForHydration(page);
    expect(await page.evaluate(() => (window as unknown as { __seen: unknown }).__seen)).toEqual({
      contextAtFirstPaint: "undefined",
      historyKeyAtFirstPaint: "undefined",
    });
  });

  test("the page opens no browser storage before its first paint, which the first access would delay", async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const seen = { storageBeforeFirstPaint: [] as string[], painted: false };
      Object.assign(window, { __seen: seen });
      for (const name of ["sessionStorage", "localStorage"] as const) {
        const descriptor = Object.getOwnPropertyDescriptor(window, name)!;
        Object.defineProperty(window, name, {
          configurable: true,
          get() {
            if (!seen.painted && !seen.storageBeforeFirstPaint.includes(name)) seen.storageBeforeFirstPaint.push(name);
            return descriptor.get!.call(window);
          },
        });
      }
      new PerformanceObserver((entries) => {
        if (entries.getEntriesByName("first-contentful-paint").length !== 0) seen.painted = true;
      }).observe({ type: "paint", buffered: true });
    });
    await page.goto("/?utm_source=test");
    await waitForHydration(page);
    expect(await page.evaluate(() => (window as unknown as { __seen: unknown }).__seen)).toEqual({
      storageBeforeFirstPaint: [],
      painted: true,
    });
    // The visit's attribution is kept all the same, once the page has painted.
    expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem("plumbline:visit") ?? "{}"))).toMatchObject({
      landing_path: "/",
      utm_source: "test",
    });
  });

  test("shows the hero, services, why-choose-us and contact sections in order", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle(/24\/7/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("24/7 Expert Plumbing service");
    const hero = page.locator("main section").first();
    await expect(hero.getByText("24/7 Emergency Service")).toBeVisible();
    await expect(hero.getByText("4.9/5 Rating (500+ Reviews)")).toBeVisible();
    await expect(hero.getByText("Free estimates • Same-day service • 100% satisfaction guarantee")).toBeVisible();
    await expect(hero.getByText("30+ Years Experience")).toBeVisible();
    await expect(hero.getByRole("link", { name: "Get a Free Quote" })).toHaveAttribute("href", /^tel:\+/);

    const services = page.locator("#services");
    const cards = services.locator("li");
    await expect(cards).toHaveCount(6);
    const expected = [
      ["Emergency Leak Repair", "Starting at $45"],
      ["Drain Cleaning", "Starting at $65"],
      ["Water Heater Service", "Starting at $100"],
      ["Bathroom Plumbing", "Starting at $80"],
      ["Whole House Plumbing", "Custom Quote"],
      ["24/7 Emergency", "Emergency Rate"],
    ];
    for (const [index, [title, price]] of expected.entries()) {
      await expect(cards.nth(index).getByRole("heading")).toHaveText(title!);
      await expect(cards.nth(index)).toContainText(price!);
    }
    // Only the Drain Cleaning card has a call button.
    await expect(services.locator("li a[href^='tel:']")).toHaveCount(1);
    await expect(cards.nth(1).getByRole("link", { name: "Get a Free Quote" })).toBeVisible();

    const whyHeadings = page.getByRole("heading", { level: 3 });
    for (const title of [
      "Licensed & Insured",
      "24/7 Availability",
      "Upfront Pricing",
      "Experienced Team",
      "Quality Guarantee",
      "Same-Day Service",
    ]) {
      await expect(whyHeadings.filter({ hasText: new RegExp(`^${title.replace(/[/&]/g, "\\$&")}$`) })).toHaveCount(1);
    }
    await expect(page.getByText("Over 30 years of combined experience", { exact: false })).toBeVisible();
    await expect(page.getByText("100% satisfaction", { exact: false }).first()).toBeVisible();

    const contact = page.locator("#contact");
    await expect(contact.getByRole("heading", { level: 2 })).toContainText("Pro");
    await expect(contact.locator("a[href^='tel:']")).toHaveCount(1);

    const order = await page
      .locator("main > section")
      .evaluateAll((sections) => sections.map((s) => s.id || s.querySelector("h1,h2")?.textContent));
    expect(order).toEqual(["24/7 Expert Plumbing service", "services", "Why Choose Us", "contact"]);
  });

  test("the services button reads 'Call Now' on small screens and 'Get Free Estimate' on wide ones", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    const button = page.locator('#services a[data-phone-placement="services"]');
    expect((await button.innerText()).trim()).toBe("Call Now");
    await page.setViewportSize({ width: 1280, height: 800 });
    expect((await button.innerText()).trim()).toBe("Get Free Estimate");
  });

  test("the testimonial carousel wraps both ways and its dots jump", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.addInitScript(() => {
      const durations: unknown[] = [];
      const animate = Element.prototype.animate;
      Object.assign(window, { __animationDurations: durations });
      Element.prototype.animate = function (keyframes, options) {
        durations.push(typeof options === "object" ? options.duration : options);
        return animate.call(this, keyframes, options);
      };
    });
    await page.goto("/");
    await waitForHydration(page);
    const carousel = page.getByRole("region", { name: "What our customers say" });
    const slides = carousel.locator("li[aria-roledescription='slide']");
    await expect(slides).toHaveCount(3);
    const dots = carousel.getByRole("link", { name: /Show testimonial/ });
    await expect(dots).toHaveCount(3);
    const expectShown = async (index: number) => {
      await expect(dots.nth(index)).toHaveAttribute("aria-current", "true");
      await expect.poll(() => shownSlide(carousel)).toBe(index);
    };
    await expectShown(0);

    await carousel.getByRole("button", { name: "Previous testimonial" }).click();
    await expectShown(2);
    await expect(dots.nth(0)).not.toHaveAttribute("aria-current", "true");

    await carousel.getByRole("button", { name: "Next testimonial" }).click();
    await expectShown(0);
    await carousel.getByRole("button", { name: "Next testimonial" }).click();
    await expectShown(1);

    await dots.nth(2).click();
    await expectShown(2);
    await carousel.getByRole("button", { name: "Next testimonial" }).click();
    await expectShown(0);
    // Every move slid for 500 ms.
    expect(
      await page.evaluate(() => (window as unknown as { __animationDurations: unknown[] }).__animationDurations),
    ).toEqual([500, 500, 500, 500, 500]);

    // With reduced motion the slide changes at once.
    await page.emulateMedia({ reducedMotion: "reduce" });
    await carousel.getByRole("button", { name: "Next testimonial" }).click();
    await expectShown(1);
    expect(
      await page.evaluate(() => (window as unknown as { __animationDurations: unknown[] }).__animationDurations),
    ).toHaveLength(5);
  });

  test("every call link on the home page sends phone_click with its placement", async ({ page }) => {
    await recordAnalytics(page);
    await page.goto("/");
    await waitForHydration(page);
    const labels = await clickVisibleCallLinks(page);
    expect(new Set(labels)).toEqual(
      new Set([
        "header_banner",
        "header",
        "hero",
        "drain_cleaning",
        "services",
        "contact_hero",
        "sticky_bottom_button",
      ]),
    );
    const clicks = await recordedPhoneClicks(page);
    expect(clicks.map((click) => click.params.event_label)).toEqual(labels);
    for (const click of clicks) {
      expect(click.event).toBe("event");
      expect(click.name).toBe("phone_click");
      expect(click.params.event_category).toBe("engagement");
      expect(click.params.value).toBe(1);
    }
  });

  test("a call click made before the scripts load is still tracked", async ({ page }) => {
    await recordAnalytics(page);
    // Hold back every script file: only the inline tracker in the head is running.
    await page.route("**/assets/*.js", () => {});
    await page.goto("/", { waitUntil: "domcontentloaded" });
    await page.locator('a[data-phone-placement="hero"]').click();
    const clicks = await recordedPhoneClicks(page);
    expect(clicks.map((click) => click.params.event_label)).toEqual(["hero"]);
  });

  test("works with JavaScript disabled: content and call links are there", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("24/7 Expert Plumbing service");
    await expect(page.locator("#services li")).toHaveCount(6);
    const hrefs = await page
      .locator("a[data-phone-placement]")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(hrefs.length).toBeGreaterThanOrEqual(6);
    for (const href of hrefs) expect(href).toMatch(/^tel:\+\d+$/);
    await context.close();
  });
});
