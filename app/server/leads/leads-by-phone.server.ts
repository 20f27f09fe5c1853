import { sql, type SQLWrapper } from "drizzle-orm";
import { executeRows, textRows, type Database } from "../db/index.server.ts";
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

/**
 * The newest lead for each of these phone numbers, by phoneKey, with the customer's name: what a call's row and a
 * text thread link to, and the name a thread is shown by. Each number is looked up
 * on its own, newest first, so that the read stops at its newest lead: a number that sent many leads (a business, a
 * bot) does not make the calls page read them all.
 */
export interface LeadOfPhone {
  id: string;
  name: string;
}

export async function newestLeadByPhone(db: Database, phones: string[]): Promise<Map<string, LeadOfPhone>> {
  const keys = [...new Set(phones.map(phoneKey).filter((key) => key.length >= 7))];
  if (keys.length === 0) return new Map();
  const rows = await executeRows<{ key: string; id: string; first_name: string; last_name: string }>(
    db,
    sql`SELECT wanted.key, newest.id, newest.first_name, newest.last_name FROM ${textRows(keys)} AS wanted(key)
      CROSS JOIN LATERAL (
        SELECT ${contactRequests.id} AS id, ${contactRequests.firstName} AS first_name,
          ${contactRequests.lastName} AS last_name
        FROM ${contactRequests} WHERE ${storedPhoneKey} = wanted.key
        ORDER BY ${contactRequests.receivedAt} DESC LIMIT 1
      ) AS newest`,
  );
  return new Map(rows.map((row) => [row.key, { id: row.id, name: `${row.first_name} ${row.last_name}`.trim() }]));
}
