import { defineConfig } from "@playwright/test";
import { assertChromiumInstalled, chromiumArgs, chromiumPath } from "./tests/chromium.ts";

assertChromiumInstalled();

const port = Number(process.env.E2E_PORT ?? 4321);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? "list" : [["list"]],
  timeout: 30_000,
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: {
      executablePath: chromiumPath,
      // No test may reach the internet (the location line calls third-party lookups): every host but
      // this machine fails to resolve. Requests a test mocks with page.route() never get that far.
      args: [...chromiumArgs, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
    },
    trace: "off",
  },
  webServer: {
    command: "node --import tsx server.ts",
    url: `http://localhost:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PGLITE_DATA_DIR: "memory://",
      OUTBOX_DIR: "test-results/outbox",
      POST_RATE_LIMIT_PER_MINUTE: "1000",
      FORM_RATE_LIMIT_PER_HOUR: "1000",
    },
  },
});
