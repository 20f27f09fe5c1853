import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, test } from "vitest";
import { importCircles, projectImportGraph } from "../../tooling/import-graph.ts";

// The house: imports run down the floors (docs/ARCHITECTURE.md) and never in a circle. `npm run lint` checks both
// with import-x (no-cycle, and no-restricted-paths for the floors); no-cycle skips type-only imports, so the whole
// graph is checked here as TypeScript resolves it, types included.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

describe("the import graph", () => {
  const graph = projectImportGraph(root);

  test("has no circle, type-only imports included", () => {
    expect(importCircles(graph)).toEqual([]);
  });

  test("a circle through a type import is seen", () => {
    const withTypeImport = new Map([...graph].map(([file, imports]) => [file, new Set(imports)]));
    withTypeImport.get("app/server/http/http-server.server.ts")!.add("app/server/services.server.ts");
    expect(importCircles(withTypeImport)).toEqual([
      expect.arrayContaining(["app/server/http/http-server.server.ts", "app/server/services.server.ts"]),
    ]);
  });
});

describe("npm run lint", () => {
  const eslint = new ESLint({ cwd: root });
  const rulesBroken = async (file: string, text: string) =>
    (await eslint.lintText(text, { filePath: resolve(root, file) }))[0]!.messages.map((message) => message.ruleId);

  test("refuses an import that runs back up a floor", async () => {
    const upward = 'import { landingPages } from "~/content/landing-pages.ts";\nexport const pages = landingPages;\n';
    expect(await rulesBroken("app/lib/upward.ts", upward)).toContain("import-x/no-restricted-paths");
    const intoTheRoot = 'import type { AppServices } from "../services.server.ts";\nexport type S = AppServices;\n';
    expect(await rulesBroken("app/server/http/root.server.ts", intoTheRoot)).toContain("import-x/no-restricted-paths");
  });

  test("refuses a circle of value imports; a circle of a type import is left to the graph check", async () => {
    // app/lib/sitemap.ts imports app/lib/seo.ts.
    const seo = readFileSync(resolve(root, "app/lib/seo.ts"), "utf8");
    expect(await rulesBroken("app/lib/seo.ts", `${seo}import "~/lib/sitemap.ts";\n`)).toContain("import-x/no-cycle");
    const typeOnly = `${seo}import type { sitemapXml } from "~/lib/sitemap.ts";\nexport type X = typeof sitemapXml;\n`;
    expect(await rulesBroken("app/lib/seo.ts", typeOnly)).not.toContain("import-x/no-cycle");
  });
});
