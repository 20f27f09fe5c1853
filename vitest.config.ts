import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { siteConfigDefine } from "./vite.config.ts";

export default defineConfig({
  define: siteConfigDefine,
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 30_000,
    setupFiles: ["tests/setup/reuse-pglite-threads.ts"],
    // Servers started inside the test process would log every request into the test output; tests that
    // read the log raise the level themselves. Servers started as processes set their own LOG_LEVEL.
    env: { LOG_LEVEL: "warn" },
    hookTimeout: 120_000,
    // Integration files start servers and databases; two cores run them best one file at a time.
    fileParallelism: false,
  },
});
