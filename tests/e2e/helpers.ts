import { join } from "node:path";
import { prerenderedPaths } from "../../app/server/http/prerendered-pages.server.ts";
import AxeBuilder from "@axe-core/playwright";
import { expect, type BrowserContext, type Locator, type Page, type Route } from "@playwright/test";
import { env, toPublicSiteConfig } from "../../app/config/env.server.ts";

/** Every prerendered route, read from the build, so a new page is scanned without editing tests. */
export function prerenderedRoutes(): string[] {
  return prerenderedPaths(join(process.cwd(), "build/client"));
}

export interface RecordedPhoneClick {
  event: string;
  name: string;
  params: { event_category: string; event_label: string; value: number };
}

/**
 * Installs a recording `window.gtag` before any page script runs, and keeps tel: clicks from
 * leaving the page (the tracker listens in the capture phase, so it still sees them).
 */
export async function recordAnalytics(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls: unknown[] = [];
    Object.assign(window, {
      __analyticsCalls: calls,
      gtag: (...args: unknown[]) => calls.push(args),
    });
    document.addEventListener("click", (event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href^="tel:"]') : null;
      if (link) event.preventDefault();
    });
  });
}

export async function recordedPhoneClicks(page: Page): Promise<RecordedPhoneClick[]> {
  const calls =
    (await page.evaluate(() => (window as unknown as { __analyticsCalls: unknown[][] }).__analyticsCalls)) ?? [];
  return calls.map(([event, name, params]) => ({ event, name, params }) as RecordedPhoneClick);
}

/** Waits until React has hydrated: the app's scripts start after the load event. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * Clicks every visible call link on the page, top to bottom, and returns their placements in click
 * order. Clicking scrolls the page, so the sticky bar's link is clicked after scrolling down again.
 * Use with recordAnalytics.
 */
export async function clickVisibleCallLinks(page: Page): Promise<string[]> {
  const stickyBar = page.getByTestId("sticky-call-bar");
  const links = page.locator("a[data-phone-placement]");
  const placements: string[] = [];
  for (let index = 0; index < (await links.count()); index += 1) {
    const link = links.nth(index);
    if (await link.evaluate((element) => element.closest('[data-testid="sticky-call-bar"]') !== null)) {
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await stickyBar.waitFor({ state: "visible" });
    }
    if (!(await link.isVisible())) continue;
    placements.push((await link.getAttribute("data-phone-placement"))!);
    await link.click();
  }
  return placements;
}

/** A phone's screen (390 × 664 px) scrolled to the end of the page, where the sticky call bar shows. */
export async function scrollDownOnPhone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 664 });
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.getByTestId("sticky-call-bar").waitFor({ state: "visible" });
}

/**
 * Runs axe with the WCAG 2.2 AA and best-practice rules on the page as it is now. No page of the site has a frame,
 * so axe runs in the page itself (legacy mode) rather than gathering frames' results in a blank page it opens for
 * each run, which took twice as long.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    // Every rule runs, but only violations are gathered node by node: the nodes that pass each rule are not
    // serialised out of the page, which made each run about a quarter slower.
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(true)
    .analyze();
  expect(
    results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    ),
  ).toEqual([]);
}

const { reverseGeocodeUrl, ipLookupUrl } = toPublicSiteConfig(env).geolocation;

type MockReply = { status?: number; json?: unknown };

/**
 * Keeps every test off the internet: requests to other hosts are aborted, except the two lookup
 * endpoints, which answer with the given replies (or wait for `hold` to settle). Returns the URLs asked.
 */
export async function mockLookups(
  context: BrowserContext,
  { reverse, ip, hold }: { reverse?: MockReply; ip?: MockReply; hold?: Promise<void> },
) {
  const asked: string[] = [];
  await context.route(/^https?:\/\/(?!localhost[:/]|127\.0\.0\.1[:/])/, (route) => route.abort());
  const answer = (reply: MockReply | undefined) => async (route: Route) => {
    asked.push(route.request().url());
    if (hold) await hold;
    if (!reply) return route.abort();
    await route.fulfill({
      status: reply.status ?? 200,
      contentType: "application/json",
      headers: { "Access-Control-Allow-Origin": "*" },
      body: JSON.stringify(reply.json ?? {}),
    });
  };
  await context.route(`${reverseGeocodeUrl}?**`, answer(reverse));
  await context.route(ipLookupUrl!, answer(ip));
  return asked;
}

/** The testimonial slide a visitor sees: the one lined up with the carousel's track, or -1 mid-slide. */
export async function shownSlide(carousel: Locator): Promise<number> {
  return carousel.locator("li[aria-roledescription='slide']").evaluateAll((slides) => {
    const track = slides[0]!.parentElement!.parentElement!.getBoundingClientRect();
    return slides.findIndex((slide) => Math.abs(slide.getBoundingClientRect().left - track.left) < 1);
  });
}

/**
 * Nothing on the page is cut off at its width: the page never scrolls sideways, and every table either fits or
 * scrolls inside a region of its own that a keyboard can reach and a screen reader names.
 */
export async function expectFitsTheScreen(page: Page, what: string): Promise<void> {
  const problems = await page.evaluate(() => {
    const root = document.documentElement;
    const found: string[] = [];
    if (root.scrollWidth > root.clientWidth) {
      found.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${root.clientWidth}`);
    }
    for (const [index, table] of [...document.querySelectorAll("table")].entries()) {
      const name = table.querySelector("caption")?.textContent ?? `table ${index + 1}`;
      const right = table.getBoundingClientRect().right;
      if (right <= root.clientWidth) continue;
      let region = table.parentElement;
      while (region && !["auto", "scroll"].includes(getComputedStyle(region).overflowX)) region = region.parentElement;
      if (!region) {
        found.push(`${name}: cut off at ${right} px, with no region to scroll it`);
        continue;
      }
      const named = Boolean(region.getAttribute("aria-label") ?? region.getAttribute("aria-labelledby"));
      if (region.getAttribute("role") !== "region" || !named || region.tabIndex < 0) {
        found.push(`${name}: scrolls in a region that is not a named, focusable region`);
      } else if (region.getBoundingClientRect().right > root.clientWidth) {
        found.push(`${name}: its scrolling region is itself cut off`);
      }
    }
    return found;
  });
  expect(problems, what).toEqual([]);
}
