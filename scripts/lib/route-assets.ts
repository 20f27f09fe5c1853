import { readFileSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { gzipSync } from "node:zlib";

/** Every prerendered page of a client build, as URL paths ("/", "/about"). */
export function prerenderedPaths(clientDir: string): string[] {
  return readdirSync(clientDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === "index.html")
    .map((entry) => {
      const folder = relative(clientDir, entry.parentPath).split(sep).join("/");
      return folder === "" ? "/" : `/${folder}`;
    })
    .sort();
}

export function pageHtml(clientDir: string, path: string): string {
  return readFileSync(join(clientDir, path, "index.html"), "utf8");
}

const ASSET_IN_HTML = /\/assets\/[\w.-]+\.(?:js|css)/g;
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["']\.\/([\w.-]+\.js)["']/g;

/**
 * The JavaScript and CSS files a page loads: every asset its HTML names (scripts, the inlined
 * route manifest, stylesheets), plus the static imports of those scripts, transitively.
 */
export function pageAssets(clientDir: string, html: string): { js: string[]; css: string[] } {
  const seen = new Set<string>();
  const queue = [...new Set(html.match(ASSET_IN_HTML) ?? [])].map((url) => url.slice("/assets/".length));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith(".js")) continue;
    const source = readFileSync(join(clientDir, "assets", file), "utf8");
    for (const [, imported] of source.matchAll(STATIC_IMPORT)) queue.push(imported!);
  }
  const files = [...seen].sort();
  return { js: files.filter((file) => file.endsWith(".js")), css: files.filter((file) => file.endsWith(".css")) };
}

export function gzipBytes(clientDir: string, files: string[]): number {
  return files.reduce((total, file) => total + gzipSync(readFileSync(join(clientDir, "assets", file))).length, 0);
}
