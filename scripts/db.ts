import { env } from "../app/config/env.server.ts";
import { runDbCommandLine, terminalOutput } from "../app/server/cli/index.server.ts";

process.exitCode = await runDbCommandLine(env, process.argv.slice(2), terminalOutput);
