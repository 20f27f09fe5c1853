import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gzipBytes, pageAssets, pageHtml, prerenderedPaths } from "../../scripts/lib/route-assets.ts";

const clientDir = join(process.cwd(), "build/client");
const JS_BUDGET_BYTES = 120 * 1024;
const CSS_BUDGET_BYTES = 20 * 1024;

describe("shipped bytes per route (gzip)", () => {
  it("has a build to measure (npm test builds first)", () => {
    expect(existsSync(join(clientDir, "index.html"))).toBe(true);
  });

  for (const path of existsSync(clientDir) ? prerenderedPaths(clientDir) : []) {
    it(`${path} ships at most 120 KB of JavaScript and 20 KB of CSS`, () => {
      const assets = pageAssets(clientDir, pageHtml(clientDir, path));
      expect(assets.js.length).toBeGreaterThan(0);
      expect(gzipBytes(clientDir, assets.js)).toBeLessThanOrEqual(JS_BUDGET_BYTES);
      expect(gzipBytes(clientDir, assets.css)).toBeLessThanOrEqual(CSS_BUDGET_BYTES);
    });
  }
});
