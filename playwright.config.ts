import { defineConfig } from "@playwright/test";
import { assertChromiumInstalled, chromiumArgs, chromiumHeadlessShell } from "./tooling/chromium.ts";
import { e2ePgliteDir, e2ePort } from "./tests/e2e-server.ts";
import { callsPgliteDir, callsServerEnv, callsSiteUrl } from "./tests/e2e-calls/settings.ts";

assertChromiumInstalled(chromiumHeadlessShell);

const port = e2ePort;
const migratedFolderCommand = (dataDir: string) => `node --import tsx tooling/migrated-database.ts ${dataDir}`;

export default defineConfig({
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
  // A screenshot is stored under the name its test gives it, whichever project runs the test.
  snapshotPathTemplate: "{testDir}/{testFilePath}-snapshots/{arg}{-snapshotSuffix}{ext}",
  use: {
    launchOptions: {
      executablePath: chromiumHeadlessShell.path,
      // No test may reach the internet (the location line calls third-party lookups): every host but
      // this machine fails to resolve. Requests a test mocks with page.route() never get that far.
      args: [...chromiumArgs, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
    },
    trace: "off",
    // The browser asks for less motion, as some visitors' do: the banner's dot blinks without end on every page, and
    // the browser would draw its frames through every test. The tests of motion itself ask for it back.
    reducedMotion: "reduce",
  },
  projects: [
    {
      // Call tracking and texts, against their own server with a tracking-number pool: one test at a time, since
      // they share its pool. They are listed first so that they run beside the site's tests from the start, rather
      // than alone on one of the two workers at the end.
      name: "calls",
      testDir: "tests/e2e-calls",
      fullyParallel: false,
      workers: 1,
      use: { baseURL: callsSiteUrl },
    },
    { name: "site", testDir: "tests/e2e", use: { baseURL: `http://localhost:${port}` } },
  ],
  webServer: [
    {
      // Each run starts with an empty database (and no socket or lock left by an interrupted run), made from the
      // migrated dump rather than created by the server (tooling/migrated-database.ts).
      command: `rm -rf ${e2ePgliteDir} ${e2ePgliteDir}.lock ${e2ePgliteDir}.sock && ${migratedFolderCommand(e2ePgliteDir)} && npm run serve`,
      url: `http://localhost:${port}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        PGLITE_DATA_DIR: e2ePgliteDir,
        // Sign-in tests stand for different clients with X-Forwarded-For, so that locking one out leaves
        // the others alone.
        TRUST_PROXY: "loopback",
        OUTBOX_DIR: "test-results/outbox",
        POST_RATE_LIMIT_PER_MINUTE: "1000",
        FORM_RATE_LIMIT_PER_HOUR: "1000",
        // Counted page views and calls reach the database within a tenth of a second, and every test's views
        // (all from this machine) stay under the counting limit.
        ANALYTICS_FLUSH_MS: "100",
        ANALYTICS_RATE_LIMIT_PER_MINUTE: "100000",
        // A Monday's digest would sit in the outbox the console tests list.
        DIGEST: "off",
        BACKUP_SCHEDULE: "off",
        // `npm run backup` in the console test writes here.
        BACKUP_DIR: "test-results/backups",
        // The alerts tests add devices whose push service is on this machine.
        PUSH_ALLOW_PRIVATE: "true",
        // The webhook test's receiver listens on this machine, over http.
        WEBHOOK_ALLOW_PRIVATE: "true",
      },
    },
    {
      // Built with the pool, since public settings are compiled into the pages, into a build folder of its own.
      command: `rm -rf ${callsPgliteDir} ${callsPgliteDir}.lock ${callsPgliteDir}.sock && npx react-router build && ${migratedFolderCommand(callsPgliteDir)} && npm run serve`,
      url: `${callsSiteUrl}/`,
      reuseExistingServer: false,
      timeout: 180_000,
      env: callsServerEnv,
    },
  ],
});
