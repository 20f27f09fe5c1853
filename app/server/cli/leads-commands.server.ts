import type { Database } from "../db/index.server.ts";
import {
  contactRequestsCsv,
  CONTACT_RETENTION_DAYS,
  markOptOutDone,
  openOptOutRequests,
  optOutRequestsCsv,
  purgeExpiredLeads,
  recentRequests,
} from "../leads/index.server.ts";
import { allUnsentEmails } from "../outbox/index.server.ts";
import { leadTextCountColumns } from "../texts/index.server.ts";
import { purgeExpiredCounts } from "../analytics/index.server.ts";

/** The operator's commands over the lead tables; scripts/leads.ts wires them to the command line. */

const USAGE = `Usage: npm run leads -- <command>

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

const day = (date: Date) => date.toISOString().slice(0, 10);
const oneLine = (text: string, max = 60) => {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export async function runLeadsCommand(
  db: Database,
  args: string[],
  write: (text: string) => void,
  /** Where .eml files are written without SMTP, so the purge deletes them with their leads. */
  { outboxDir }: { outboxDir?: string } = {},
): Promise<number> {
  const [command, argument] = args;
  switch (command) {
    case "list": {
      const limit = Number(argument ?? 20);
      if (!Number.isInteger(limit) || limit < 1) break;
      const { contacts, optOuts } = await recentRequests(db, limit);
      write(`Contact requests (${contacts.length}, newest first):\n`);
      for (const row of contacts) {
        write(
          `  ${row.receivedAt.toISOString()}  ${row.id}  ${oneLine(`${row.firstName} ${row.lastName}`, 30)}  ${row.email}  ${row.phone}  ${oneLine(row.service)}${row.globalPrivacyControl ? "  [GPC: do not sell or share]" : ""}\n`,
        );
      }
      write(`Opt-out requests (${optOuts.length}, newest first):\n`);
      for (const row of optOuts) {
        const state = row.completedAt ? `done ${day(row.completedAt)}` : `due ${day(row.dueAt)}`;
        write(`  ${row.receivedAt.toISOString()}  ${row.id}  ${oneLine(row.name, 30)}  ${row.email}  ${state}\n`);
      }
      return 0;
    }
    case "export": {
      if (argument === undefined || argument === "contacts") {
        for await (const chunk of contactRequestsCsv(db, await leadTextCountColumns(db))) write(chunk);
        return 0;
      }
      if (argument === "opt-outs") {
        write(await optOutRequestsCsv(db));
        return 0;
      }
      break;
    }
    case "opt-outs": {
      const rows = await openOptOutRequests(db);
      const now = Date.now();
      write(`Open opt-out requests (${rows.length}, soonest due first):\n`);
      for (const row of rows) {
        const overdue = row.dueAt.getTime() < now ? "  OVERDUE" : "";
        write(`  due ${day(row.dueAt)}  ${row.id}  ${oneLine(row.name, 30)}  ${row.email}${overdue}\n`);
      }
      return 0;
    }
    case "done": {
      if (!argument || !/^[0-9a-f-]{36}$/i.test(argument)) break;
      if (!(await markOptOutDone(db, argument, null))) {
        write(`No open opt-out request with id ${argument}.\n`);
        return 1;
      }
      write(`Opt-out request ${argument} marked done.\n`);
      return 0;
    }
    case "outbox": {
      const rows = await allUnsentEmails(db);
      const pending = rows.filter((row) => row.failedAt === null);
      const failed = rows.filter((row) => row.failedAt !== null);
      const lastError = (row: (typeof rows)[number]) =>
        row.lastError ? `  last error: ${oneLine(row.lastError, 80)}` : "";
      write(`Pending emails (${pending.length}):\n`);
      for (const row of pending) {
        write(
          `  ${row.createdAt.toISOString()}  ${row.purpose}  to ${row.toAddress}  attempts ${row.attempts}  next ${row.nextAttemptAt.toISOString()}${lastError(row)}\n`,
        );
      }
      write(`Failed emails, not retried (${failed.length}):\n`);
      for (const row of failed) {
        write(
          `  ${row.createdAt.toISOString()}  ${row.purpose}  to ${row.toAddress}  attempts ${row.attempts}  failed ${row.failedAt!.toISOString()}${lastError(row)}\n`,
        );
      }
      return 0;
    }
    case "purge": {
      const days = Number(argument ?? CONTACT_RETENTION_DAYS);
      if (!Number.isInteger(days) || days < 1) break;
      const { contacts, optOuts } = await purgeExpiredLeads(db, { contactRetentionDays: days, outboxDir });
      await purgeExpiredCounts(db);
      write(
        `Deleted ${contacts} contact request(s) and ${optOuts} processed opt-out request(s), with their emails, and daily page view and call counts older than 25 months.\n`,
      );
      return 0;
    }
  }
  write(`${USAGE}\n`);
  return 2;
}
