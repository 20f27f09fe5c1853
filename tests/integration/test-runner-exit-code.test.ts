import { spawn } from "node:child_process";
import { expect, test } from "vitest";

/**
 * `npm test` stops at a failing unit or integration test: vitest's exit code is not 0 when a test fails, even with
 * the shared PostgreSQL's set-up loaded, whose library ends its process with code 0 when the event loop empties.
 */
test("a vitest run with a failing test, and the suite's PostgreSQL set-up, exits with code 1", async () => {
  const child = spawn(
    process.execPath,
    ["node_modules/vitest/vitest.mjs", "run", "--config", "tests/fixtures/failing-run/vitest.config.ts"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise((resolve) => child.on("close", resolve));
  expect(output).toContain("fails on purpose");
  expect(code, output).toBe(1);
});
