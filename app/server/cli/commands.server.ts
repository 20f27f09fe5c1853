import type { OpenDatabase } from "../db/index.server.ts";
import type { CommandOutput, CommandRequest } from "./command-socket.server.ts";
import { runBackupCommand } from "./backup-commands.server.ts";
import type { Backups } from "../backups/index.server.ts";

/**
 * The operator's command-line tools, by name: run by the command line on its own database connection, or
 * by the server on its connection when it holds the embedded database. One implementation for both. A tool's
 * module is loaded when the tool first runs, so that a command line the server answers loads none of them.
 */
export async function runCommand(
  database: Pick<OpenDatabase, "db" | "run" | "streamRows">,
  request: CommandRequest,
  output: CommandOutput,
  /**
   * `pausing`: the purge waits after each statement, leaving the machine's cores to the site (on PostgreSQL);
   * `timeZone`: OPERATOR_TIME_ZONE, the calendar the tools' days are shown on.
   */
  settings: { outboxDir: string; backups: Backups; pausing: boolean; timeZone: string },
): Promise<number> {
  switch (request.tool) {
    case "leads":
      return (await import("./leads-commands.server.ts")).runLeadsCommand(database, request.args, output.out, settings);
    case "backup":
      return runBackupCommand(settings.backups, output);
    case "operator":
      return (await import("./operator-commands.server.ts")).runOperatorCommand(
        database.db,
        request.args,
        output,
        request.password,
      );
    default:
      output.err(`Unknown command: ${request.tool}\n`);
      return 2;
  }
}
