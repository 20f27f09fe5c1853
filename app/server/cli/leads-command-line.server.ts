import type { Env } from "~/config/env.server.ts";
import { runCommandLine } from "./command-line.server.ts";
import { parseLeadsArgs } from "./leads-args.server.ts";

/**
 * `npm run leads -- …`: the command is checked on the operator's own terminal, so that a mistyped one is refused
 * before anything is sent or a database opened (or, with no server and no data folder yet, created).
 */
export async function runLeadsCommandLine(env: Env, args: string[]): Promise<number> {
  const command = parseLeadsArgs(args);
  if ("problem" in command) {
    process.stderr.write(`${command.problem}\n`);
    return 2;
  }
  return runCommandLine(env, { tool: "leads", args });
}
