import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { NextFunction, Request, Response } from "express";
import {
  STORED_ENCODINGS,
  storedEncodings,
  writeCompressedCopies,
  type StoredEncoding,
} from "./compressed-copies.server.ts";
import { inlineScriptHashes, inlineStyleHashes } from "./csp.server.ts";

/** One stored form of a page: its bytes as sent and their ETag. */
interface PageBody {
  body: Buffer;
  etag: string;
}

export interface PrerenderedPage {
  /** The HTML as it is, and compressed in each stored encoding that was found beside it. */
  identity: PageBody;
  encoded: Map<StoredEncoding, PageBody>;
  /** The page's Content-Security-Policy, pinning its inline scripts and style by hash; built once at start. */
  csp: string;
}

/** Writes every prerendered page's compressed copies beside it (a step at the build's end). */
export function compressPrerenderedPages(clientDir: string): Promise<void> {
  return writeCompressedCopies(prerenderedPaths(clientDir).map((path) => join(clientDir, path, "index.html")));
}

const pageBody = (body: Buffer): PageBody => ({
  body,
  etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
});

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
    const folder = join(clientDir, path);
    const html = await readFile(join(folder, "index.html"));
    const text = html.toString("utf8");
    const encoded = new Map<StoredEncoding, PageBody>();
    for (const encoding of storedEncodings) {
      const file = join(folder, `index.html${STORED_ENCODINGS[encoding].suffix}`);
      if (existsSync(file)) encoded.set(encoding, pageBody(await readFile(file)));
    }
    pages.set(path, {
      identity: pageBody(html),
      encoded,
      csp: policyFor(inlineScriptHashes(text), inlineStyleHashes(text)),
    });
  }
  return pages;
}

/** "/about/" and "/about" are the same page; "/" stays "/". */
export function pageKey(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname;
}

/**
 * GET and HEAD of a prerendered page: its HTML with its own CSP, in the best stored encoding the browser
 * accepts (a page stored in none is compressed as it is sent), revalidated by ETag.
 */
export function servePrerenderedPages(pages: Map<string, PrerenderedPage>) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const page = pages.get(pageKey(req.path));
    if (!page) return next();
    const encoding = storedEncodings.find((name) => page.encoded.has(name) && req.acceptsEncodings(name) === name);
    const { body, etag } = encoding ? page.encoded.get(encoding)! : page.identity;
    res.set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "public, max-age=0, must-revalidate",
      "Content-Security-Policy": page.csp,
      ETag: etag,
      Vary: "Accept-Encoding",
    });
    if (encoding) res.set("Content-Encoding", encoding);
    if (req.fresh) return res.status(304).end();
    res.status(200).send(body);
  };
}
