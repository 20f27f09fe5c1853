import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export { prerenderedPaths } from "../../app/server/http/index.server.ts";

export function pageHtml(clientDir: string, path: string): string {
  return readFileSync(join(clientDir, path, "index.html"), "utf8");
}

// React Router's module script imports the matched routes and the client entry; the route manifest
// it also inlines names every other route's files, which load only on navigation.
const SCRIPT_IMPORT_IN_HTML = /import\s*(?:\*\s*as\s+\w+\s+from\s*|\(\s*)"\/assets\/([\w.-]+\.js)"/g;
const STYLESHEET_IN_HTML = /<link rel="stylesheet" href="\/assets\/([\w.-]+\.css)"/g;
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["']\.\/([\w.-]+\.js)["']/g;

/** The JavaScript and CSS files a page loads: its scripts and stylesheets, with their static imports, transitively. */
export function pageAssets(clientDir: string, html: string): { js: string[]; css: string[] } {
  const seen = new Set<string>();
  const queue = [...html.matchAll(SCRIPT_IMPORT_IN_HTML), ...html.matchAll(STYLESHEET_IN_HTML)].map(
    (match) => match[1]!,
  );
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
