import { passwordProblem } from "../app/server/console/operators.server.ts";
import { parseOperatorArgs } from "./operator-commands.ts";
import { runCommandLine } from "./lib/command-line.ts";
import { readPassword } from "./lib/read-password.ts";

const args = process.argv.slice(2);
const command = parseOperatorArgs(args);
let password: string | undefined;
if ("name" in command && command.name === "add") {
  password = await readPassword(`New password for ${command.email} (at least 12 characters): `);
  // Checked here too, so a short password is refused before anything is sent or opened.
  const problem = passwordProblem(password);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
process.exitCode = await runCommandLine({ tool: "operator", args, password });
