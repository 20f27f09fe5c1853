import { env } from "../app/config/env.server.ts";
import { runCommandLine } from "../app/server/cli/index.server.ts";

process.exitCode = await runCommandLine(env, { tool: "backup", args: process.argv.slice(2) });
