import { env } from "../app/config/env.server.ts";
import { runOperatorCommandLine } from "../app/server/cli/index.server.ts";

process.exitCode = await runOperatorCommandLine(env, process.argv.slice(2));
