import { runCommandLine } from "./lib/command-line.ts";

process.exitCode = await runCommandLine({ tool: "leads", args: process.argv.slice(2) });
