import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { executeRows, openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { purgeSettledEmails } from "./settled-emails.server.ts";

let database: OpenDatabase;

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
});
afterAll(() => database?.close());

/** `count` emails of `purpose` created `daysAgo`, sent or still to send, belonging to a lead or to no request. */
async function storeEmails(
  label: string,
  count: number,
  { purpose = "missed_call", daysAgo = 400, sent = true, ofLead = false } = {},
) {
  await database.db.execute(sql`
    INSERT INTO email_outbox (id, created_at, purpose, sent_at, contact_request_id, message_id, to_address, subject,
      text_body, html_body)
    SELECT gen_random_uuid(), now() - ${daysAgo} * interval '1 day', ${purpose}, ${sent ? sql`now()` : sql`NULL`},
      ${ofLead ? sql`gen_random_uuid()` : sql`NULL`}, '<' || ${label} || '-' || n || '@test>', 'owner@example.com',
      ${label}, 'Text', '<p>Text</p>'
    FROM generate_series(1, ${count}::int) n`);
}

test("the settled emails of a purpose that belong to no request go once past their days, however many, and nothing else", async () => {
  // More than two statements' worth.
  await storeEmails("old", 1_203);
  await storeEmails("recent", 3, { daysAgo: 10 });
  await storeEmails("unsent", 2, { sent: false });
  await storeEmails("other purpose", 2, { purpose: "weekly_digest" });
  await storeEmails("a lead's", 2, { ofLead: true });

  expect(await purgeSettledEmails(database.run, "missed_call", 365)).toBe(1_203);
  const left = await executeRows<{ subject: string; count: number }>(
    database.db,
    sql`SELECT subject, count(*)::int AS count FROM email_outbox GROUP BY subject ORDER BY subject`,
  );
  expect(left).toEqual([
    { subject: "a lead's", count: 2 },
    { subject: "other purpose", count: 2 },
    { subject: "recent", count: 3 },
    { subject: "unsent", count: 2 },
  ]);
  expect(await purgeSettledEmails(database.run, "missed_call", 365)).toBe(0);
});
