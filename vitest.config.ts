import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { siteConfigDefine } from "./vite.config.ts";

export default defineConfig({
  define: siteConfigDefine,
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts", "scripts/**/*.test.ts"],
    // The suite keeps both cores busy, and this machine's speed varies from day to day: the slowest test without a
    // limit of its own (a server killed while it creates its folder) took 15 s on a slow day.
    testTimeout: 60_000,
    globalSetup: ["tests/setup/scratch-folder.ts", "tests/setup/migrated-database.ts", "tests/setup/postgres.ts"],
    setupFiles: ["tests/setup/reuse-pglite-threads.ts"],
    // Servers started inside the test process would log every request into the test output; tests that
    // read the log raise the level themselves. Servers started as processes set their own LOG_LEVEL.
    env: { LOG_LEVEL: "warn" },
    hookTimeout: 120_000,
    // Two files at a time: most integration files wait on servers, databases and child processes more than they
    // compute, and on two cores the suite took 243 s this way against 326 s one file at a time.
    maxWorkers: 2,
    // Each of the two workers runs its files one after another in one process, keeping the modules it loaded and the
    // embedded databases' threads it closed (reuse-pglite-threads.ts) from one file to the next: a fresh process
    // for each file loaded the server's modules and PGlite's WebAssembly again, and the suite took 415-430 s
    // instead of 290. A file therefore leaves behind no state another could see: globals and environment variables
    // stubbed with vi.stubGlobal and vi.stubEnv are put back after each test, and a file that fakes timers puts
    // back the real ones.
    isolate: false,
    unstubGlobals: true,
    unstubEnvs: true,
  },
});
