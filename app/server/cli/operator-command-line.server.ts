import type { Env } from "~/config/env.server.ts";
import { passwordProblem } from "~/lib/operator-account.ts";
import { runCommandLine } from "./command-line.server.ts";
import { parseOperatorArgs } from "./operator-args.server.ts";
import { readPassword } from "./read-password.server.ts";

/**
 * `npm run operator -- …`: the command and its address are checked on the operator's own terminal, and a new
 * operator's password is read and checked there too, so that a mistake is refused before anything is sent or a
 * database opened (or, with no server and no data folder yet, created).
 */
export async function runOperatorCommandLine(env: Env, args: string[]): Promise<number> {
  const command = parseOperatorArgs(args);
  if ("problem" in command) {
    process.stderr.write(`${command.problem}\n`);
    return 2;
  }
  let password: string | undefined;
  if (command.name === "add") {
    password = await readPassword(`New password for ${command.email} (at least 12 characters): `);
    const problem = passwordProblem(password);
    if (problem) {
      process.stderr.write(`${problem}\n`);
      return 1;
    }
  }
  return runCommandLine(env, { tool: "operator", args, password });
}
