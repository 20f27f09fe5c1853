import type { Env } from "~/config/env.server.ts";
import { commandSocketPath, sendCommand, type CommandRequest } from "./command-socket.server.ts";
import { embeddedDatabaseOwner, openDatabase } from "../db/index.server.ts";
import { setLogLevel } from "../log.server.ts";
import { createBackups } from "../backups/index.server.ts";
import { backupSettings } from "../services.server.ts";
import { runCommand } from "./commands.server.ts";

// A server that has just started holds the database for a few seconds before it listens for commands.
const SERVER_STARTING_MS = 15_000;

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
 * Runs a command where the data is: on PostgreSQL directly (DATABASE_URL); through the running server
 * when it holds the embedded database; otherwise on the embedded database itself.
 */
export async function runCommandLine(env: Env, request: CommandRequest): Promise<number> {
  setLogLevel(env.LOG_LEVEL);
  exitQuietlyWhenOutputCloses();
  if (!env.DATABASE_URL && !env.PGLITE_DATA_DIR.startsWith("memory://")) {
    const owner = await embeddedDatabaseOwner(env.PGLITE_DATA_DIR);
    if (owner !== undefined) return sendToServer(env, owner, request);
  }
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    pgliteDataDir: env.PGLITE_DATA_DIR,
    poolSize: 1,
  });
  try {
    const backups = createBackups({
      db: database.db,
      run: database.run,
      databaseUrl: env.DATABASE_URL,
      settings: backupSettings(env),
    });
    return await runCommand(database.db, request, output, { outboxDir: env.OUTBOX_DIR, backups });
  } finally {
    await database.close();
  }
}

async function sendToServer(env: Env, owner: number, request: CommandRequest): Promise<number> {
  const deadline = Date.now() + SERVER_STARTING_MS;
  for (;;) {
    try {
      return await sendCommand(commandSocketPath(env.PGLITE_DATA_DIR), request, output);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === "ENOENT" || code === "ECONNREFUSED") && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      output.err(
        `The server (process ${owner}) holds the embedded database in ${env.PGLITE_DATA_DIR} but did not run the command: ${(error as Error).message}\n`,
      );
      return 1;
    }
  }
}
