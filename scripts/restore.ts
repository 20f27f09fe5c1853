import { env } from "../app/config/env.server.ts";
import { runRestoreCommandLine, terminalOutput } from "../app/server/cli/index.server.ts";

process.exitCode = await runRestoreCommandLine(env, process.argv.slice(2), terminalOutput);
