import { existsSync } from "node:fs";

interface ChromiumBuild {
  path: string;
  debianPackage: string;
  /** The environment variable that points at another copy of this build. */
  setting: string;
}

/**
 * The browser tests drive Chromium's headless shell, the build Playwright itself runs headless: it opens a page in
 * about a third of the full browser's time, and the tests open one for every test.
 */
export const chromiumHeadlessShell: ChromiumBuild = {
  path: process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/lib/chromium/chromium-headless-shell",
  debianPackage: "chromium-headless-shell",
  setting: "CHROMIUM_HEADLESS_SHELL_PATH",
};

/** Lighthouse (`npm run bench`) drives the full browser, as visitors' phones run it. */
export const chromium: ChromiumBuild = {
  path: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  debianPackage: "chromium",
  setting: "CHROMIUM_PATH",
};

export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function assertChromiumInstalled(build: ChromiumBuild): void {
  if (existsSync(build.path)) return;
  throw new Error(
    `Chromium was not found at ${build.path}.\n` +
      "The browser tests and benchmarks drive Debian's Chromium. Install it with:\n" +
      `  sudo apt-get update && sudo apt-get install -y ${build.debianPackage}\n` +
      `or set ${build.setting} to another copy of it.`,
  );
}
