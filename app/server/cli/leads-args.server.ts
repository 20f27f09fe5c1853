/** `npm run leads -- …`: what is asked for, read on the terminal before it is sent or the database opened. */

const LEADS_USAGE = `Usage: npm run leads -- <command>

  list [limit]          the most recent contact and opt-out requests (default 20 of each)
  export [contacts|opt-outs]
                        every request of that kind as CSV on standard output (default contacts)
  opt-outs              open opt-out requests, the soonest due first
  done <id>             mark an opt-out request as processed
  outbox                emails still to send (pending) and emails given up (failed), with their
                        attempts and last error
  purge [days]          delete contact requests older than [days] (default 365, the privacy policy's
                        limit) and processed opt-outs older than 24 months (CCPA record keeping),
                        with their sent emails; anything with an email still to send is kept

Reads DATABASE_URL, or the embedded database in PGLITE_DATA_DIR (default ./data/pglite); while the
server runs on the embedded database, the server runs the command.`;

export type LeadsCommand =
  | { name: "list"; limit: number }
  | { name: "export"; requests: "contacts" | "opt-outs" }
  | { name: "opt-outs" | "outbox" }
  | { name: "done"; id: string }
  /** `days` absent: the privacy policy's limit. */
  | { name: "purge"; days?: number };

const positiveInteger = (text: string) => (/^\d+$/.test(text) && Number(text) >= 1 ? Number(text) : undefined);

function parse([name, argument, ...rest]: string[]): LeadsCommand | undefined {
  if (rest.length > 0) return undefined;
  switch (name) {
    case "list": {
      const limit = argument === undefined ? 20 : positiveInteger(argument);
      return limit === undefined ? undefined : { name, limit };
    }
    case "export":
      if (argument === undefined || argument === "contacts") return { name, requests: "contacts" };
      return argument === "opt-outs" ? { name, requests: argument } : undefined;
    case "opt-outs":
    case "outbox":
      return argument === undefined ? { name } : undefined;
    case "done":
      return argument !== undefined && /^[0-9a-f-]{36}$/i.test(argument) ? { name, id: argument } : undefined;
    case "purge": {
      if (argument === undefined) return { name };
      const days = positiveInteger(argument);
      return days === undefined ? undefined : { name, days };
    }
  }
  return undefined;
}

/** The command in `args`, or the usage when they are not one. */
export function parseLeadsArgs(args: string[]): LeadsCommand | { problem: string } {
  return parse(args) ?? { problem: LEADS_USAGE };
}
