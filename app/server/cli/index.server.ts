/** `npm run leads` and `npm run operator`: the commands, and the local socket they reach the server through. */
export { commandSocketPath, listenForCommands } from "./command-socket.server.ts";
export { runCommand } from "./commands.server.ts";
export { runCommandLine } from "./command-line.server.ts";
export { parseOperatorArgs } from "./operator-commands.server.ts";
export { readPassword } from "./read-password.server.ts";
