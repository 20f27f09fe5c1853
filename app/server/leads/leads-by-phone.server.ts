import { desc, inArray, sql, type SQLWrapper } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { contactRequests } from "./schema.server.ts";

/**
 * Phone numbers compared as people write them: the last 10 digits, so "(555) 019-9123", "555.019.9123" and
 * "+15550199123" are the same number. Shorter numbers compare whole.
 */
export function phoneKey(phone: string): string {
  return phone.replace(/\D/g, "").slice(-10);
}

/**
 * `phoneKey` in SQL, of a stored phone number: the form the tables' phone-number indexes are built on (leads' phone,
 * calls' caller, texts' customer), so that a query written with it can use them.
 */
export function phoneKeySql(phone: SQLWrapper) {
  return sql<string>`right(regexp_replace(${phone}, '\\D', '', 'g'), 10)`;
}

const storedPhoneKey = phoneKeySql(contactRequests.phone);

/** The newest lead for each of these phone numbers, by phoneKey: what a call's row links to. */
export async function newestLeadByPhone(db: Database, phones: string[]): Promise<Map<string, string>> {
  const keys = [...new Set(phones.map(phoneKey).filter((key) => key.length >= 7))];
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ id: contactRequests.id, key: storedPhoneKey })
    .from(contactRequests)
    .where(inArray(storedPhoneKey, keys))
    .orderBy(desc(contactRequests.receivedAt));
  const newest = new Map<string, string>();
  for (const row of rows) if (!newest.has(row.key)) newest.set(row.key, row.id);
  return newest;
}
