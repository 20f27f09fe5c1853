/**
 * Before `npm test`: the browser tests drive Debian's Chromium headless shell and the scale-out test runs a real
 * nginx. When either is missing, it is installed with apt-get if this runs as root (a fresh machine, CI); otherwise
 * the tests stop at once with the exact command to run.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromiumHeadlessShell } from "../tooling/chromium.ts";

const NGINX_PATH = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

const missing = [
  { binary: chromiumHeadlessShell.path, debianPackage: chromiumHeadlessShell.debianPackage },
  { binary: NGINX_PATH, debianPackage: "nginx" },
]
  .filter(({ binary }) => !existsSync(binary))
  .map(({ debianPackage }) => debianPackage);

if (missing.length > 0) {
  const install = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(" ")}`;
  if (process.getuid?.() !== 0) {
    console.error(`The tests need ${missing.join(" and ")}. Install with:\n  sudo sh -c '${install}'`);
    process.exit(1);
  }
  console.error(`Installing ${missing.join(" and ")} for the tests: ${install}`);
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  // Without the recommended packages (desktop, sound and printing helpers) the install is a fifth the size.
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}
