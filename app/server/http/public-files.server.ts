import { readdirSync } from "node:fs";
import { relative, sep } from "node:path";
import express, { type NextFunction, type Request, type Response } from "express";

/**
 * The build's other public files (favicon, robots.txt, sitemap, route data), served from a list made at
 * start: only a listed path is ever handed to the static server. Pages (`.html`, and their compressed copies
 * `.html.br` and `.html.gz`) are never listed, so
 * however a path is encoded (`index%2Ehtml`, `%252E`, trailing dots) a raw page cannot be served without
 * its Content-Security-Policy; pages are served by path, with their CSP, elsewhere.
 */
export function publicFiles(clientDir: string, { skip }: { skip: string }) {
  const listed = new Set(
    readdirSync(clientDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !/\.html(\.br|\.gz)?$/i.test(entry.name))
      .map((entry) => `/${relative(clientDir, `${entry.parentPath}/${entry.name}`).split(sep).join("/")}`)
      .filter((path) => !path.startsWith(`/${skip}/`)),
  );
  const serve = express.static(clientDir, { maxAge: "1h", index: false, redirect: false, dotfiles: "deny" });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let decoded: string;
    try {
      decoded = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    if (listed.has(decoded)) serve(req, res, next);
    else next();
  };
}
