import { existsSync } from "node:fs";

/** Debian's Chromium, used by Playwright and Lighthouse. CHROMIUM_PATH may point elsewhere. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

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

export function assertChromiumInstalled(): void {
  if (existsSync(chromiumPath)) return;
  throw new Error(
    `Chromium was not found at ${chromiumPath}.\n` +
      "The browser tests and benchmarks drive Debian's Chromium. Install it with:\n" +
      "  sudo apt-get update && sudo apt-get install -y chromium\n" +
      "or set CHROMIUM_PATH to a Chromium or Chrome binary.",
  );
}
