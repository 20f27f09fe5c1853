import type { Database } from "../db/index.server.ts";
import { passwordProblem } from "~/lib/operator-account.ts";
import {
  listOperators,
  removeOperator,
  saveOperator,
  createSignInLimit,
  resetTwoStep,
} from "../console/index.server.ts";
import type { CommandOutput } from "./command-socket.server.ts";
import { parseOperatorArgs } from "./operator-args.server.ts";

/** The console's accounts, run where the database is; operator-command-line.server.ts reads them from the terminal. */

export async function runOperatorCommand(
  db: Database,
  args: string[],
  output: CommandOutput,
  password: string | undefined,
): Promise<number> {
  const command = parseOperatorArgs(args);
  if ("problem" in command) {
    output.err(`${command.problem}\n`);
    return 2;
  }
  switch (command.name) {
    case "add": {
      const problem = password === undefined ? "No password was given." : passwordProblem(password);
      if (problem) {
        output.err(`${problem}\n`);
        return 1;
      }
      const { created } = await saveOperator(db, command.email, password!);
      output.out(
        created
          ? `Operator ${command.email} added. Sign in at /admin/login.\n`
          : `Password of ${command.email} changed; its sessions have ended.\n`,
      );
      return 0;
    }
    case "list": {
      const rows = await listOperators(db);
      output.out(`Operators (${rows.length}):\n`);
      for (const row of rows) output.out(`  ${row.email}  added ${row.createdAt.toISOString().slice(0, 10)}\n`);
      return 0;
    }
    case "remove": {
      if (!(await removeOperator(db, command.email))) {
        output.err(`No operator with email ${command.email}.\n`);
        return 1;
      }
      output.out(`Operator ${command.email} removed; its sessions have ended.\n`);
      return 0;
    }
    case "unlock": {
      await createSignInLimit(db).unlock(command.email);
      output.out(`Sign-in for ${command.email} is unlocked.\n`);
      return 0;
    }
    case "reset-2fa": {
      if (!(await resetTwoStep(db, command.email))) {
        output.err(`No operator with email ${command.email}.\n`);
        return 1;
      }
      output.out(`Two-step sign-in for ${command.email} is off; they can turn it on again under Account.\n`);
      return 0;
    }
  }
}
