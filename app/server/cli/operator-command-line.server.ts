import type { Env } from "~/config/env.server.ts";
import { passwordProblem } from "~/lib/operator-account.ts";
import { runCommandLine } from "./command-line.server.ts";
import { parseOperatorArgs } from "./operator-args.server.ts";
import { readPassword } from "./read-password.server.ts";

/**
 * `npm run operator -- …`: a new operator's password is read on the operator's own terminal, and checked
 * there too, so a short password is refused before anything is sent or opened.
 */
export async function runOperatorCommandLine(env: Env, args: string[]): Promise<number> {
  const command = parseOperatorArgs(args);
  let password: string | undefined;
  if ("name" in command && command.name === "add") {
    password = await readPassword(`New password for ${command.email} (at least 12 characters): `);
    const problem = passwordProblem(password);
    if (problem) {
      process.stderr.write(`${problem}\n`);
      return 1;
    }
  }
  return runCommandLine(env, { tool: "operator", args, password });
}
