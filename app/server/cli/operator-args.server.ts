import { operatorEmail } from "~/lib/operator-account.ts";

/** `npm run operator -- …`: what is asked for, read on the terminal before it is sent or the database opened. */

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

type OperatorCommand = { name: "add" | "remove" | "unlock" | "reset-2fa"; email: string } | { name: "list" };

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
