import { and, desc, eq, ilike, like, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { COUNT_LIMIT, SEARCH_COUNT_LIMIT } from "~/lib/console-limits.ts";
import { listQueryFields, oneCursor } from "~/lib/list-query.ts";
import { LEAD_STATUSES, type LeadStatus } from "~/lib/lead-status.ts";
import { boundedCount, keysetPage, keysetQuery, type Database, type ListCursor } from "../db/index.server.ts";
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

/** What a search looks for: the text in names and emails, and its digits in phone numbers. */
export function searchTerms(q: string): { text: string; digits: string | null } {
  const digits = q.replace(/\D/g, "");
  return { text: q, digits: digits.length >= MIN_PHONE_DIGITS ? digits : null };
}

/** `%`, `_` and `\` typed by the operator match themselves, not any text. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function searchCondition(q: string): SQL | undefined {
  if (!q) return undefined;
  const { text, digits } = searchTerms(q);
  return or(
    ilike(sql`${contactRequests.firstName} || ' ' || ${contactRequests.lastName}`, containing(text)),
    ilike(contactRequests.email, containing(text)),
    digits ? like(sql`regexp_replace(${contactRequests.phone}, '\\D', '', 'g')`, `%${digits}%`) : undefined,
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

export async function listInbox(db: Database, query: InboxQuery, timeZone: string): Promise<InboxPage> {
  const where = and(query.status ? eq(contactRequests.status, query.status) : undefined, searchCondition(query.q));
  const read = (cursor: ListCursor) => {
    const keyset = keysetQuery(KEYSET, where, cursor);
    return db
      .select({
        id: contactRequests.id,
        receivedAt: contactRequests.receivedAt,
        firstName: contactRequests.firstName,
        lastName: contactRequests.lastName,
        phone: contactRequests.phone,
        email: contactRequests.email,
        service: contactRequests.service,
        status: contactRequests.status,
        globalPrivacyControl: contactRequests.globalPrivacyControl,
      })
      .from(contactRequests)
      .where(keyset.where)
      .orderBy(...keyset.orderBy)
      .limit(INBOX_PAGE_SIZE + 1);
  };
  const countLimit = query.q ? SEARCH_COUNT_LIMIT : COUNT_LIMIT;
  const [total, page] = await Promise.all([
    boundedCount(db, contactRequests, where, countLimit),
    read(query).then((rows) => keysetPage(rows, INBOX_PAGE_SIZE, query, () => read({}))),
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
