import { and, asc, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { privacyRequests } from "./schema.server.ts";
import { csvCell } from "./csv-cells.server.ts";
import {
  addDays,
  deadline,
  describeDeadline,
  formatDate,
  formatTime,
  localDate,
  wallClock,
  zonedInstant,
} from "../../lib/operator-time.ts";

/** Opt-out requests: the open ones soonest due first, then those already done. */

/** An opt-out request is processed within 30 days. */
const OPT_OUT_DUE_DAYS = 30;

/**
 * When an opt-out received at `receivedAt` is due: 30 of the operator's calendar days later, at the same time of day
 * on their clock, so the due date every email and page shows is the operator's day, also across a clock change.
 */
export function optOutDueAt(receivedAt: Date, timeZone: string): Date {
  const { hour, minute, second } = wallClock(receivedAt, timeZone);
  const dueDay = addDays(localDate(receivedAt, timeZone), OPT_OUT_DUE_DAYS);
  const withinHour = (minute * 60 + second) * 1000 + receivedAt.getUTCMilliseconds();
  return new Date(zonedInstant(dueDay, hour, timeZone).getTime() + withinHour);
}

/** Done requests shown under the open ones, most recent first (the CSV export has them all). */
const DONE_LIMIT = 100;

interface OpenOptOut {
  id: string;
  name: string;
  email: string;
  message: string | null;
  receivedAt: string;
  dueDate: string;
  /** "12 days left", "Due today", "Overdue by 3 days". */
  deadline: string;
  overdue: boolean;
}

interface DoneOptOut {
  id: string;
  name: string;
  email: string;
  receivedAt: string;
  completedAt: string;
  /** The operator who marked it done, or null when it was done from the command line. */
  completedBy: string | null;
}

export async function listOptOuts(
  db: Database,
  now: Date,
  timeZone: string,
): Promise<{ open: OpenOptOut[]; done: DoneOptOut[] }> {
  const [open, done] = await Promise.all([
    db.select().from(privacyRequests).where(isNull(privacyRequests.completedAt)).orderBy(asc(privacyRequests.dueAt)),
    db
      .select()
      .from(privacyRequests)
      .where(isNotNull(privacyRequests.completedAt))
      .orderBy(desc(privacyRequests.completedAt))
      .limit(DONE_LIMIT),
  ]);
  return {
    open: open.map((request) => {
      const due = deadline(request.dueAt, now, timeZone);
      return {
        id: request.id,
        name: request.name,
        email: request.email,
        message: request.message,
        receivedAt: formatTime(request.receivedAt, timeZone),
        dueDate: formatDate(request.dueAt, timeZone),
        deadline: describeDeadline(due),
        overdue: due.overdue,
      };
    }),
    done: done.map((request) => ({
      id: request.id,
      name: request.name,
      email: request.email,
      receivedAt: formatTime(request.receivedAt, timeZone),
      completedAt: formatTime(request.completedAt!, timeZone),
      completedBy: request.completedBy,
    })),
  };
}

/** Marks an open request done now, by this operator (null: from the command line). False when no open request has that id. */
export async function markOptOutDone(db: Database, id: string, operatorEmail: string | null): Promise<boolean> {
  const updated = await db
    .update(privacyRequests)
    .set({ completedAt: new Date(), completedBy: operatorEmail })
    .where(and(eq(privacyRequests.id, id), isNull(privacyRequests.completedAt)))
    .returning({ id: privacyRequests.id });
  return updated.length > 0;
}

/** Open opt-out requests, the soonest due first, for `npm run leads -- opt-outs`. */
export function openOptOutRequests(db: Database) {
  return db
    .select()
    .from(privacyRequests)
    .where(isNull(privacyRequests.completedAt))
    .orderBy(asc(privacyRequests.dueAt));
}

/** Every opt-out request, oldest first, as CSV; status is "open" until someone marks it done. */
export async function optOutRequestsCsv(db: Database): Promise<string> {
  const rows = await db.select().from(privacyRequests).orderBy(asc(privacyRequests.receivedAt));
  return [
    ["id", "received_at", "due_at", "completed_at", "name", "email", "message", "channel", "status", "completed_by"],
    ...rows.map((row) => [
      row.id,
      row.receivedAt,
      row.dueAt,
      row.completedAt,
      row.name,
      row.email,
      row.message,
      row.channel,
      row.completedAt ? "done" : "open",
      row.completedBy,
    ]),
  ]
    .map((row) => `${row.map(csvCell).join(",")}\r\n`)
    .join("");
}
