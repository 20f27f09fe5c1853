import { runCommandLine } from "../app/server/cli/command-line.server.ts";

process.exitCode = await runCommandLine({ tool: "leads", args: process.argv.slice(2) });
