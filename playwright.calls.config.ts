import { defineConfig } from "@playwright/test";
import { assertChromiumInstalled, chromiumArgs, chromiumPath } from "./tooling/chromium.ts";
import { callsPgliteDir, callsServerEnv, callsSiteUrl } from "./tests/e2e-calls/settings.ts";

assertChromiumInstalled();

/** Call tracking in the browser, against a server built and started with a tracking-number pool. */
export default defineConfig({
  testDir: "tests/e2e-calls",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
  use: {
    baseURL: callsSiteUrl,
    launchOptions: {
      executablePath: chromiumPath,
      args: [...chromiumArgs, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
    },
    trace: "off",
  },
  webServer: {
    command: `rm -rf ${callsPgliteDir} ${callsPgliteDir}.lock ${callsPgliteDir}.sock && npx react-router build && npm run serve`,
    url: `${callsSiteUrl}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: callsServerEnv,
  },
});
