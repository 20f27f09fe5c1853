import { and, asc, desc, eq, ilike, like, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { countLimitOf } from "~/lib/console-limits.ts";
import { listQueryFields, oneCursor } from "~/lib/list-query.ts";
import { LEAD_STATUSES, type LeadStatus } from "~/lib/lead-status.ts";
import {
  boundedCount,
  boundedMatches,
  keysetPage,
  keysetQuery,
  textRows,
  type Database,
  type ListCursor,
} from "../db/index.server.ts";
import { contactRequests, privacyRequests } from "./schema.server.ts";
import { timeAgo } from "../../lib/time-ago.ts";
import { formatTime } from "../../lib/operator-time.ts";

/** The inbox: contact requests newest first, 50 a page, searched by name, email or phone digits, filtered by status. */

export const INBOX_PAGE_SIZE = 50;
/** Fewer digits than this in a search would match nearly every phone number, so they search text only. */
const MIN_PHONE_DIGITS = 3;

const inboxQuerySchema = z
  .object({
    ...listQueryFields,
    status: z.union([z.enum(LEAD_STATUSES), z.literal("")]).default(""),
  })
  .refine(oneCursor);

export interface InboxQuery extends ListCursor {
  q: string;
  status: LeadStatus | "";
}

/** The inbox's query string, or null when a value is out of bounds (a 101-character search, a page not a row id). */
export function parseInboxQuery(params: URLSearchParams): InboxQuery | null {
  const raw = Object.fromEntries(
    ["before", "after", "q", "status"].flatMap((key) => {
      const value = params.get(key);
      return value === null ? [] : [[key, value]];
    }),
  );
  const result = inboxQuerySchema.safeParse(raw);
  return result.success ? result.data : null;
}

/**
 * What a search looks for: the text in names and emails (from three characters on; a shorter text, a word of a name),
 * and its digits in phone numbers.
 */
export function searchTerms(q: string): { text: string; digits: string | null } {
  const digits = q.replace(/\D/g, "");
  return { text: q, digits: digits.length >= MIN_PHONE_DIGITS ? digits : null };
}

/** `%`, `_` and `\` typed by the operator match themselves, not any text. */
function literal(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * A search of fewer characters than this finds the names with a word that is exactly it (Li, Xu), not every name,
 * email and number that holds it: the trigram indexes find text inside a name from three characters on, and a
 * shorter text read every entry of the name's index, or every lead (4 s for "zq" in a busy year, with the embedded
 * database holding up lead intake meanwhile), for a search that matches a quarter of all leads.
 */
const MIN_INSIDE_SEARCH = 3;

/** The columns a search looks in: the table's, or those of leads already read (`nearby`, below). */
type SearchedColumns = Record<"firstName" | "lastName" | "email" | "phone", AnyPgColumn>;

function searchCondition(q: string, columns: SearchedColumns): SQL | undefined {
  if (!q) return undefined;
  const { text, digits } = searchTerms(q);
  const name = sql`${columns.firstName} || ' ' || ${columns.lastName}`;
  const word = literal(text);
  if (text.length < MIN_INSIDE_SEARCH) {
    return or(...[word, `${word} %`, `% ${word}`, `% ${word} %`].map((pattern) => ilike(name, pattern)));
  }
  return or(
    ilike(name, `%${word}%`),
    ilike(columns.email, `%${word}%`),
    digits ? like(sql`regexp_replace(${columns.phone}, '\\D', '', 'g')`, `%${digits}%`) : undefined,
  );
}

interface InboxRow {
  id: string;
  receivedAt: string;
  /** "12 min ago": what a phone's inbox card shows. */
  receivedAgo: string;
  name: string;
  phone: string;
  email: string;
  service: string;
  status: LeadStatus;
  globalPrivacyControl: boolean;
}

interface InboxPage {
  rows: InboxRow[];
  /** How many match, counted up to `countLimit` + 1. */
  total: number;
  /** How far the matches were counted: a search's, not as far. */
  countLimit: number;
  /** Whether there are newer and older requests than this page's. */
  newer: boolean;
  older: boolean;
}

const KEYSET = { table: contactRequests, time: contactRequests.receivedAt, id: contactRequests.id };

/**
 * A search with more matches than it counts (a common name: one lead in fifty) reads its page first among the 5,000
 * leads next to where the page starts, newest first (oldest first for newer leads), which fill a page in about 10 ms;
 * with fewer than a page of matches there, it reads every lead in the list's order with the search as a filter. Left
 * to the planner, the choice came from a sample of about 100 names, and a sample without a common name read all
 * 20,000 of its matches for each page: 94 ms.
 */
const NEARBY_LEADS = 5_000;

const INBOX_COLUMNS = {
  id: contactRequests.id,
  receivedAt: contactRequests.receivedAt,
  firstName: contactRequests.firstName,
  lastName: contactRequests.lastName,
  phone: contactRequests.phone,
  email: contactRequests.email,
  service: contactRequests.service,
  status: contactRequests.status,
  globalPrivacyControl: contactRequests.globalPrivacyControl,
};

export async function listInbox(db: Database, query: InboxQuery, timeZone: string): Promise<InboxPage> {
  const status = query.status ? eq(contactRequests.status, query.status) : undefined;
  const where = and(status, searchCondition(query.q, contactRequests));
  const countLimit = countLimitOf(query.q);
  const read = async (cursor: ListCursor, condition: SQL | undefined) => {
    const keyset = keysetQuery(KEYSET, condition, cursor);
    return db
      .select(INBOX_COLUMNS)
      .from(contactRequests)
      .where(keyset.where)
      .orderBy(...keyset.orderBy)
      .limit(INBOX_PAGE_SIZE + 1);
  };
  const readNearby = async (cursor: ListCursor) => {
    const keyset = keysetQuery(KEYSET, status, cursor);
    const nearby = db
      .select(INBOX_COLUMNS)
      .from(contactRequests)
      .where(keyset.where)
      .orderBy(...keyset.orderBy)
      .limit(NEARBY_LEADS)
      .as("nearby");
    const order = keyset.newer ? asc : desc;
    const rows = await db
      .select()
      .from(nearby)
      .where(searchCondition(query.q, nearby))
      .orderBy(order(nearby.receivedAt), order(nearby.id))
      .limit(INBOX_PAGE_SIZE + 1);
    return rows.length > INBOX_PAGE_SIZE ? rows : read(cursor, where);
  };
  const pageOf = async (readFrom: (cursor: ListCursor) => ReturnType<typeof read>) =>
    keysetPage(await readFrom(query), INBOX_PAGE_SIZE, query, () => readFrom({}));
  // A search's matches come first: counted past the limit, its page is read among the leads near it; otherwise, from
  // those matches alone. Read in time order with the search as a filter, a page of four digits in 589 leads took
  // 436 ms instead of 11 when the planner guessed 10,000 matches and expected a page among the newest few hundred.
  const searched = async () => {
    const matches = await boundedMatches(db, contactRequests, contactRequests.id, where, countLimit);
    const fromMatches = (cursor: ListCursor) =>
      read(cursor, sql`${contactRequests.id} IN (SELECT ${textRows(matches)}::uuid)`);
    return [matches.length, await pageOf(matches.length > countLimit ? readNearby : fromMatches)] as const;
  };
  // A list's count runs beside its page.
  const [total, page] = query.q
    ? await searched()
    : await Promise.all([
        boundedCount(db, contactRequests, where, countLimit),
        pageOf((cursor) => read(cursor, where)),
      ]);
  return {
    rows: page.rows.map(({ firstName, lastName, receivedAt, ...row }) => ({
      ...row,
      name: `${firstName} ${lastName}`,
      receivedAt: formatTime(receivedAt, timeZone),
      receivedAgo: timeAgo(receivedAt),
    })),
    total,
    countLimit,
    newer: page.newer,
    older: page.older,
  };
}

/** The newest contact and opt-out requests, `limit` of each, for `npm run leads -- list`. */
export async function recentRequests(db: Database, limit: number) {
  const [contacts, optOuts] = await Promise.all([
    db.select().from(contactRequests).orderBy(desc(contactRequests.receivedAt)).limit(limit),
    db.select().from(privacyRequests).orderBy(desc(privacyRequests.receivedAt)).limit(limit),
  ]);
  return { contacts, optOuts };
}
