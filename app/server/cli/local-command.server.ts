import { embeddedDatabaseFolder, type Env } from "~/config/env.server.ts";
import {
  commandSocketPath,
  noServerListens,
  sendCommand,
  type CommandOutput,
  type CommandRequest,
} from "./command-socket.server.ts";
import { embeddedDatabaseOwner, openDatabase } from "../db/index.server.ts";
import { backupSettings, createBackups } from "../backups/index.server.ts";
import { runCommand } from "./commands.server.ts";

// A server that has just started holds the database for a few seconds before it listens for commands.
const SERVER_STARTING_MS = 15_000;

/**
 * A command no running server answered: sent to the server that holds the embedded database once it listens, or run
 * here on PostgreSQL (DATABASE_URL) or on the embedded database itself.
 */
export async function runWhereTheDatabaseIs(env: Env, request: CommandRequest, output: CommandOutput): Promise<number> {
  const folder = embeddedDatabaseFolder(env);
  if (folder !== undefined) {
    const owner = await embeddedDatabaseOwner(folder);
    if (owner !== undefined) return sendToStartingServer(folder, owner, request, output);
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
    return await runCommand(database, request, output, {
      outboxDir: env.OUTBOX_DIR,
      backups,
      timeZone: env.OPERATOR_TIME_ZONE,
      pausing: Boolean(env.DATABASE_URL),
    });
  } finally {
    await database.close();
  }
}

async function sendToStartingServer(
  folder: string,
  owner: number,
  request: CommandRequest,
  output: CommandOutput,
): Promise<number> {
  const deadline = Date.now() + SERVER_STARTING_MS;
  for (;;) {
    try {
      return await sendCommand(commandSocketPath(folder), request, output);
    } catch (error) {
      if (noServerListens(error) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      output.err(
        `The server (process ${owner}) holds the embedded database in ${folder} but did not run the command: ${(error as Error).message}\n`,
      );
      return 1;
    }
  }
}
