import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { siteConfigDefine } from "./vite.config.ts";

export default defineConfig({
  define: siteConfigDefine,
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 30_000,
    globalSetup: ["tests/setup/migrated-database.ts"],
    setupFiles: ["tests/setup/reuse-pglite-threads.ts"],
    // Servers started inside the test process would log every request into the test output; tests that
    // read the log raise the level themselves. Servers started as processes set their own LOG_LEVEL.
    env: { LOG_LEVEL: "warn" },
    hookTimeout: 120_000,
    // Two files at a time: most integration files wait on servers, databases and child processes more than they
    // compute, and on two cores the suite took 243 s this way against 326 s one file at a time.
    maxWorkers: 2,
  },
});
