import type { OpenDatabase } from "../db/index.server.ts";
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
import { parseLeadsArgs } from "./leads-args.server.ts";
import { localDate } from "~/lib/operator-time.ts";

/** The operator's commands over the lead tables; scripts/leads.ts wires them to the command line. */

const oneLine = (text: string, max = 60) => {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export async function runLeadsCommand(
  database: Pick<OpenDatabase, "db" | "run" | "streamRows">,
  args: string[],
  write: (text: string) => void,
  /**
   * Where .eml files are written without SMTP, so the purge deletes them with their leads; whether the purge waits
   * after each statement (on PostgreSQL); the operator's time zone, whose calendar days an opt-out is due and done on.
   */
  { outboxDir, pausing, timeZone }: { outboxDir?: string; pausing?: boolean; timeZone: string },
): Promise<number> {
  const { db } = database;
  const day = (instant: Date) => localDate(instant, timeZone);
  const command = parseLeadsArgs(args);
  if ("problem" in command) {
    write(`${command.problem}\n`);
    return 2;
  }
  switch (command.name) {
    case "list": {
      const { contacts, optOuts } = await recentRequests(db, command.limit);
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
      if (command.requests === "opt-outs") write(await optOutRequestsCsv(db));
      else {
        // Each chunk is whole lines, so its bytes decode on their own.
        const decoder = new TextDecoder();
        const chunks = contactRequestsCsv(database, await leadTextCountColumns(db));
        for await (const chunk of chunks) write(typeof chunk === "string" ? chunk : decoder.decode(chunk));
      }
      return 0;
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
      if (!(await markOptOutDone(db, command.id, null))) {
        write(`No open opt-out request with id ${command.id}.\n`);
        return 1;
      }
      write(`Opt-out request ${command.id} marked done.\n`);
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
      const contactRetentionDays = command.days ?? CONTACT_RETENTION_DAYS;
      const { contacts, optOuts } = await purgeExpiredLeads(db, { contactRetentionDays, outboxDir, pausing });
      await purgeExpiredCounts(db);
      write(
        `Deleted ${contacts} contact request(s) and ${optOuts} processed opt-out request(s), with their emails, and daily page view and call counts older than 25 months.\n`,
      );
      return 0;
    }
  }
}
