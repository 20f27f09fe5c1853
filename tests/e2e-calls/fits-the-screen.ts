import { expect, type Page } from "@playwright/test";

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
