import { readdirSync } from "node:fs";
import { join } from "node:path";
import expressStaticGzip from "express-static-gzip";
import { writeCompressedCopies } from "./compressed-copies.server.ts";

const ONE_YEAR_MS = 31_536_000_000;
/** The assets that are text: scripts and stylesheets. */
const TEXT_ASSET = /\.(js|css)$/;

/** Writes the compressed copies of every script and stylesheet the build made (a step at the build's end). */
export function compressBuiltAssets(assetsDir: string): Promise<void> {
  return writeCompressedCopies(
    readdirSync(assetsDir)
      .filter((name) => TEXT_ASSET.test(name))
      .map((name) => join(assetsDir, name)),
  );
}

/**
 * The build's fingerprinted assets, which never change, each in the best encoding the browser accepts as it was
 * compressed at build time: Brotli, then gzip, else as it is. A browser's first visit asks for about twenty at once,
 * and compressing each as it was sent kept the server busy for tens of milliseconds a page.
 */
export function builtAssets(assetsDir: string) {
  return expressStaticGzip(assetsDir, {
    enableBrotli: true,
    orderPreference: ["br", "gzip"],
    index: false,
    serveStatic: { immutable: true, maxAge: ONE_YEAR_MS, index: false, redirect: false, fallthrough: false },
  });
}
