import { expect, test } from "vitest";
import { npmScriptCommand } from "../tooling/server-process.ts";

test("bench:api runs its server in-process with the memory settings `npm run serve` gives the server", () => {
  const serve = npmScriptCommand("serve");
  const bench = npmScriptCommand("bench:api");
  expect({ ...bench.env, NODE_ENV: serve.env.NODE_ENV }).toEqual(serve.env);
  const nodeFlags = (args: string[]) => args.filter((arg) => arg.startsWith("--") && !arg.startsWith("--import"));
  expect(nodeFlags(bench.args)).toEqual(nodeFlags(serve.args));
});
