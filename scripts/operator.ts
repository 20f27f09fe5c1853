import { passwordProblem } from "../app/server/console/index.server.ts";
import { parseOperatorArgs, runCommandLine, readPassword } from "../app/server/cli/index.server.ts";

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
