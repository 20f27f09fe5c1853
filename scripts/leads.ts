import { env } from "../app/config/env.server.ts";
import { runLeadsCommandLine } from "../app/server/cli/index.server.ts";

process.exitCode = await runLeadsCommandLine(env, process.argv.slice(2));
