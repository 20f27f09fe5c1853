import type { Database } from "../db/index.server.ts";
import {
  listOperators,
  operatorEmail,
  passwordProblem,
  removeOperator,
  saveOperator,
  createSignInLimit,
  resetTwoStep,
} from "../console/index.server.ts";
import type { CommandOutput } from "./command-socket.server.ts";

/** The console's accounts; scripts/operator.ts wires them to the command line. */

const OPERATOR_USAGE = `Usage: npm run operator -- <command>

  add <email>       create an operator who can sign in at /admin/login, or set a new password for an
                    existing one (which signs it out everywhere); the password is read from standard
                    input (one line) or prompted for, and must have at least 12 characters
  list              every operator
  remove <email>    delete an operator and end its sessions
  unlock <email>    forget the failed sign-ins for an account, from every address, so that its
                    operator can sign in at once
  reset-2fa <email> turn two-step sign-in off for an operator who lost their phone and recovery
                    codes; they sign in with their password and can turn it on again under Account

Works while the server runs: with the embedded database the command is run by the server.`;

export type OperatorCommand = { name: "add" | "remove" | "unlock" | "reset-2fa"; email: string } | { name: "list" };

const EMAIL_COMMANDS = new Set(["add", "remove", "unlock", "reset-2fa"]);

/** The command in `args`, or a message saying what is wrong with them. */
export function parseOperatorArgs(args: string[]): OperatorCommand | { problem: string } {
  const [name, email, ...rest] = args;
  if (name === "list" && email === undefined) return { name };
  if (name !== undefined && EMAIL_COMMANDS.has(name) && email !== undefined && rest.length === 0) {
    const parsed = operatorEmail.safeParse(email);
    return parsed.success
      ? { name: name as "add" | "remove" | "unlock" | "reset-2fa", email: parsed.data }
      : { problem: `Not a valid email address: ${email}` };
  }
  return { problem: OPERATOR_USAGE };
}

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
