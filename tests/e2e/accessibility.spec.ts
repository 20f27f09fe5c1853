import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { prerenderedRoutes } from "./helpers.ts";

for (const path of [...prerenderedRoutes(), "/this-page-does-not-exist"]) {
  test(`axe finds no violations on ${path}`, async ({ page }) => {
    await page.goto(path);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
      .analyze();
    expect(
      results.violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      ),
    ).toEqual([]);
  });
}
