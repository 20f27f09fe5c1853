import { and, desc, eq, inArray, like, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { countLimitOf } from "~/lib/console-limits.ts";
import { listQueryFields, oneCursor } from "~/lib/list-query.ts";
import { CALL_OUTCOMES, type CallOutcome } from "~/lib/call-outcomes.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { isRowId } from "~/lib/row-id.ts";
import { boundedCount, keysetPage, keysetQuery, type Database, type ListCursor } from "../db/index.server.ts";
import { newestLeadByPhone, phoneKey, phoneKeySql, type LeadOfPhone } from "../leads/index.server.ts";
import { ATTRIBUTION_KEYS } from "./call-log.server.ts";
import { routesShown, type CallRouteShown } from "./call-routes-shown.server.ts";
import { calls, type CallLine, type CallStatus } from "./schema.server.ts";

/** The console's calls: newest first, 50 a page, filtered by outcome and searched by the caller's digits. */

const CALLS_PAGE_SIZE = 50;

/** A call still ringing has no outcome yet. */
type ShownOutcome = CallOutcome | "Ringing";

const STATUSES_OF: Record<CallOutcome, CallStatus[]> = {
  Answered: ["answered"],
  Missed: ["busy", "no-answer", "failed", "canceled"],
  Voicemail: ["voicemail"],
};

export function outcomeOf(status: CallStatus): ShownOutcome {
  if (status === "ringing") return "Ringing";
  return CALL_OUTCOMES.find((outcome) => STATUSES_OF[outcome].includes(status))!;
}

const querySchema = z
  .object({
    ...listQueryFields,
    outcome: z.union([z.enum(CALL_OUTCOMES), z.literal("")]).default(""),
  })
  .refine(oneCursor);
export type CallsQuery = z.infer<typeof querySchema>;

/** The calls page's query string, or null when a value is out of bounds. */
export function parseCallsQuery(params: URLSearchParams): CallsQuery | null {
  const raw = Object.fromEntries(
    ["before", "after", "q", "outcome"].flatMap((key) => {
      const value = params.get(key);
      return value === null ? [] : [[key, value]];
    }),
  );
  const result = querySchema.safeParse(raw);
  return result.success ? result.data : null;
}

/** How a call is shown: which number it came in on, and where its visit came from. */
export interface CallRow {
  id: string;
  time: string;
  caller: string;
  called: string;
  /** "Website, unattributed" (the site's own number), "Pool" (a visit held it), "Pool, unattributed" or "Other number". */
  lineLabel: string;
  outcome: ShownOutcome;
  /** Seconds, or null while ringing or unknown. */
  durationSeconds: number | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  landingPath: string | null;
  gclid: string | null;
  hasRecording: boolean;
  /** The newest lead with the caller's number, if any. */
  leadId: string | null;
  /** A call routed to partners: who rang, who took it, billable or why not, the charge. */
  route: CallRouteShown | null;
}

type StoredCall = typeof calls.$inferSelect;

function lineLabel(line: CallLine, attributed: boolean): string {
  if (line === "website") return "Website, unattributed";
  if (line === "other") return "Other number";
  return attributed ? "Pool" : "Pool, unattributed";
}

function toRow(
  call: StoredCall,
  timeZone: string,
  leads: Map<string, LeadOfPhone>,
  routes: Map<string, CallRouteShown> = new Map(),
): CallRow {
  const attributed = ATTRIBUTION_KEYS.some((key) => call[key] !== null);
  return {
    id: call.id,
    time: formatTime(call.startedAt, timeZone),
    caller: call.caller,
    called: call.called,
    lineLabel: lineLabel(call.line, attributed),
    outcome: outcomeOf(call.status),
    durationSeconds: call.durationSeconds,
    source: call.utmSource ?? call.referrerHost,
    medium: call.utmMedium,
    campaign: call.utmCampaign,
    landingPath: call.landingPath,
    gclid: call.gclid,
    hasRecording: call.recordingSid !== null,
    leadId: leads.get(phoneKey(call.caller))?.id ?? null,
    route: routes.get(call.id) ?? null,
  };
}

const callerDigits = sql<string>`regexp_replace(${calls.caller}, '\\D', '', 'g')`;

function where(query: Pick<CallsQuery, "q" | "outcome">): SQL | undefined {
  const digits = query.q.replace(/\D/g, "");
  return and(
    query.outcome ? inArray(calls.status, STATUSES_OF[query.outcome]) : undefined,
    query.q ? like(callerDigits, `%${digits}%`) : undefined,
  );
}

const KEYSET = { table: calls, time: calls.startedAt, id: calls.id };

export async function listCalls(db: Database, query: CallsQuery, timeZone: string, currency: string) {
  const condition = where(query);
  const read = (cursor: ListCursor) => {
    const keyset = keysetQuery(KEYSET, condition, cursor);
    return db
      .select()
      .from(calls)
      .where(keyset.where)
      .orderBy(...keyset.orderBy)
      .limit(CALLS_PAGE_SIZE + 1);
  };
  const countLimit = countLimitOf(query.q);
  const [total, page] = await Promise.all([
    boundedCount(db, calls, condition, countLimit),
    read(query).then((rows) => keysetPage(rows, CALLS_PAGE_SIZE, query, () => read({}))),
  ]);
  const [leads, routes] = await Promise.all([
    newestLeadByPhone(
      db,
      page.rows.map((row) => row.caller),
    ),
    routesShown(
      db,
      page.rows.filter((row) => row.routedAt !== null),
      currency,
    ),
  ]);
  return {
    rows: page.rows.map((row) => toRow(row, timeZone, leads, routes)),
    total,
    countLimit,
    newer: page.newer,
    older: page.older,
  };
}

/** The calls from one phone number, newest first (a lead's page). */
export async function callsFromPhone(db: Database, phone: string, timeZone: string): Promise<CallRow[]> {
  const key = phoneKey(phone);
  if (key.length < 7) return [];
  const rows = await db
    .select()
    .from(calls)
    .where(eq(phoneKeySql(calls.caller), key))
    .orderBy(desc(calls.startedAt))
    .limit(50);
  return rows.map((row) => toRow(row, timeZone, new Map()));
}

/** The Twilio recording SID of a call, for the console to stream; null when there is none. */
export async function recordingOfCall(db: Database, id: string): Promise<string | null> {
  if (!isRowId(id)) return null;
  const [row] = await db.select({ sid: calls.recordingSid }).from(calls).where(eq(calls.id, id));
  return row?.sid ?? null;
}
