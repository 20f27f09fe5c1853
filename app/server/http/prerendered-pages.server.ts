import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { NextFunction, Request, Response } from "express";
import { inlineScriptHashes, inlineStyleHashes } from "./csp.server.ts";

export interface PrerenderedPage {
  html: Buffer;
  /** The page's Content-Security-Policy, pinning its inline scripts and style by hash; built once at start. */
  csp: string;
  etag: string;
}

/** Every prerendered page of a client build, as URL paths without a trailing slash ("/", "/about"). */
export function prerenderedPaths(clientDir: string): string[] {
  return readdirSync(clientDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === "index.html")
    .map((entry) => {
      const folder = relative(clientDir, entry.parentPath).split(sep).join("/");
      return folder === "" ? "/" : `/${folder}`;
    })
    .sort();
}

/**
 * Reads every prerendered page once at start, keyed by its path, so `/about` is served directly
 * instead of redirected.
 */
export async function loadPrerenderedPages(
  clientDir: string,
  policyFor: (scriptHashes: string[], styleHashes: string[]) => string,
): Promise<Map<string, PrerenderedPage>> {
  const pages = new Map<string, PrerenderedPage>();
  for (const path of prerenderedPaths(clientDir)) {
    const html = await readFile(join(clientDir, path, "index.html"));
    const text = html.toString("utf8");
    pages.set(path, {
      html,
      csp: policyFor(inlineScriptHashes(text), inlineStyleHashes(text)),
      etag: `"${createHash("sha1").update(html).digest("base64url")}"`,
    });
  }
  return pages;
}

/** "/about/" and "/about" are the same page; "/" stays "/". */
export function pageKey(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname;
}

/** GET and HEAD of a prerendered page: its HTML with its own CSP, revalidated by ETag. */
export function servePrerenderedPages(pages: Map<string, PrerenderedPage>) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const page = pages.get(pageKey(req.path));
    if (!page) return next();
    res.set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "public, max-age=0, must-revalidate",
      "Content-Security-Policy": page.csp,
      ETag: page.etag,
    });
    if (req.fresh) return res.status(304).end();
    res.status(200).send(page.html);
  };
}
