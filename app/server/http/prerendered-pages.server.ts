import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { inlineScriptHashes } from "./csp.server.ts";

export interface PrerenderedPage {
  html: Buffer;
  /** CSP hash sources of the page's inline scripts. */
  scriptHashes: string[];
  etag: string;
}

/**
 * Reads every prerendered `index.html` under the client build once at start, keyed by URL path
 * without a trailing slash ("/", "/about"), so `/about` is served directly instead of redirected.
 */
export async function loadPrerenderedPages(clientDir: string): Promise<Map<string, PrerenderedPage>> {
  const pages = new Map<string, PrerenderedPage>();
  for (const entry of await readdir(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== "index.html") continue;
    const file = join(entry.parentPath, entry.name);
    const folder = relative(clientDir, entry.parentPath).split(sep).join("/");
    const html = await readFile(file);
    pages.set(folder === "" ? "/" : `/${folder}`, {
      html,
      scriptHashes: inlineScriptHashes(html.toString("utf8")),
      etag: `"${createHash("sha1").update(html).digest("base64url")}"`,
    });
  }
  return pages;
}

/** "/about/" and "/about" are the same page; "/" stays "/". */
export function pageKey(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname;
}
