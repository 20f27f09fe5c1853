/** `npm run leads` and `npm run operator`: the commands, and the local socket they reach the server through. */
export { commandSocketPath, listenForCommands } from "./command-socket.server.ts";
export { runCommand } from "./commands.server.ts";
export { runCommandLine, terminalOutput } from "./command-line.server.ts";
export { runDbCommandLine, runRestoreCommandLine } from "./backup-commands.server.ts";
export { runLeadsCommandLine } from "./leads-command-line.server.ts";
export { runOperatorCommandLine } from "./operator-command-line.server.ts";
