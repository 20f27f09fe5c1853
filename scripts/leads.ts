import { runCommandLine } from "../app/server/cli/index.server.ts";

process.exitCode = await runCommandLine({ tool: "leads", args: process.argv.slice(2) });
