import { embeddedDatabaseFolder, type Env } from "~/config/env.server.ts";
import { commandSocketPath, noServerListens, sendCommand, type CommandRequest } from "./command-socket.server.ts";
import { setLogLevel } from "../log.server.ts";

export const terminalOutput = {
  out: (text: string) => void process.stdout.write(text),
  err: (text: string) => void process.stderr.write(text),
};
const output = terminalOutput;

/**
 * A reader that stops early (`npm run leads -- export | head`) closes the pipe: the rest of the output has
 * nowhere to go, and the command ends quietly, as Unix tools do, instead of with a stack trace.
 */
function exitQuietlyWhenOutputCloses() {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(0);
      throw error;
    });
  }
}

/**
 * Runs a command where the data is: through the running server when it holds the embedded database; otherwise on
 * PostgreSQL directly (DATABASE_URL) or on the embedded database itself. A command the server runs starts in a
 * fraction of a second: only what reaches its socket is loaded, not the modules that open and query a database.
 */
export async function runCommandLine(env: Env, request: CommandRequest): Promise<number> {
  setLogLevel(env.LOG_LEVEL);
  exitQuietlyWhenOutputCloses();
  const folder = embeddedDatabaseFolder(env);
  if (folder !== undefined) {
    try {
      return await sendCommand(commandSocketPath(folder), request, output);
    } catch (error) {
      if (!noServerListens(error)) {
        output.err(
          `The server holding the embedded database in ${folder} did not run the command: ${(error as Error).message}\n`,
        );
        return 1;
      }
    }
  }
  const { runWhereTheDatabaseIs } = await import("./local-command.server.ts");
  return runWhereTheDatabaseIs(env, request, output);
}
