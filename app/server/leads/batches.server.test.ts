import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import { executeRows, openDatabase, type OpenDatabase, type RunStatement } from "../db/db.server.ts";
import { csvCell } from "./csv-cells.server.ts";
import { contactRequestsCsv } from "./leads-csv.server.ts";
import { purgeExpiredLeads } from "./retention.server.ts";

/** The export and the retention purge work a batch of rows at a time: across batches, nothing is lost or repeated. */

let database: OpenDatabase;

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
});
afterAll(() => database?.close());

/** `count` leads received at `receivedAt`, each with its email to the operator, sent. */
async function storeLeads(first: number, count: number, receivedAt: string, into = database) {
  await into.db.execute(sql`
    INSERT INTO contact_requests (id, received_at, first_name, last_name, email, phone, service, message, consent_text, channel)
    SELECT md5('lead-' || n)::uuid, ${receivedAt}::timestamptz, 'Ann', 'Lee ' || n, 'ann@example.com', '555-' || n,
      'Leak', 'Help', 'By submitting…', 'api'
    FROM generate_series(${first}::int, ${first + count - 1}::int) n`);
  await into.db.execute(sql`
    INSERT INTO email_outbox (id, purpose, sent_at, contact_request_id, message_id, to_address, subject, text_body, html_body)
    SELECT md5('email-' || n)::uuid, 'contact_notification', now(), md5('lead-' || n)::uuid, '<' || n || '@test>',
      'leads@example.com', 'New request', 'Text', '<p>Text</p>'
    FROM generate_series(${first}::int, ${first + count - 1}::int) n`);
}

describe.each(databasesToOpen())("the CSV export on $name", ({ open }) => {
  let exported: OpenDatabase;
  beforeAll(async () => {
    exported = await open();
  });
  afterAll(() => exported?.close());

  test("has every lead once, oldest first, with its extra cells and its time to the millisecond, even when more than a batch arrived at the same moment", async () => {
    // Batches of a few hundred leads as short as these: 5,003 in one instant, then later ones at a tenth of a second
    // and a whole second.
    await storeLeads(1, 5_003, "2026-11-01T10:00:00.123456Z", exported);
    await storeLeads(6_000, 2, "2026-11-02T10:00:00Z", exported);
    await storeLeads(7_000, 1, "2026-11-01T12:00:00.1Z", exported);
    const phoneAgain = { header: "phone_again", cell: (phone: string) => phone };
    let text = "";
    for await (const chunk of contactRequestsCsv(exported, [phoneAgain])) text += chunk;
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^id,received_at,first_name,.*,phone_again$/);
    const ids = lines.slice(1).map((line) => line.split(",")[0]);
    expect(ids).toHaveLength(5_006);
    expect(new Set(ids).size).toBe(5_006);
    const times = lines.slice(1).map((line) => line.split(",")[1]);
    expect(new Set(times.slice(0, 5_003))).toEqual(new Set(["2026-11-01T10:00:00.123Z"]));
    expect(times.slice(5_003)).toEqual([
      "2026-11-01T12:00:00.100Z",
      "2026-11-02T10:00:00.000Z",
      "2026-11-02T10:00:00.000Z",
    ]);
    // Each line's extra cell is its own lead's.
    for (const line of lines.slice(1)) expect(line.split(",").at(-1)).toBe(line.split(",")[5]);
  });

  test("writes a lead's cells as csvCell writes them, and nothing for a column left empty", async () => {
    await exported.db.execute(sql`DELETE FROM email_outbox`);
    await exported.db.execute(sql`DELETE FROM contact_requests`);
    const lead = {
      first: "=cmd|' /C calc'!A0",
      last: "Ünal; Zoë",
      email: "\u00a0@example.com",
      phone: "+1 (555) 010-2030",
      service: "Leak, urgent",
      message: 'He said "help"\r\nnow',
      consent: "-20.00",
    };
    await exported.db.execute(sql`
      INSERT INTO contact_requests (id, received_at, first_name, last_name, email, phone, service, message,
        consent_text, channel, global_privacy_control, utm_source)
      VALUES ('00000000-0000-4000-8000-000000000001', '2026-11-03T04:05:06.789999Z', ${lead.first}, ${lead.last},
        ${lead.email}, ${lead.phone}, ${lead.service}, ${lead.message}, ${lead.consent}, 'web', true, '@google')`);
    const texts = { header: "texts", cell: (phone: string) => `+${phone.length}` };
    const chunks: string[] = [];
    for await (const chunk of contactRequestsCsv(exported, [texts])) {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    }
    const cells = [
      "00000000-0000-4000-8000-000000000001",
      "2026-11-03T04:05:06.789Z",
      ...[lead.first, lead.last, lead.email, lead.phone, lead.service, lead.message, "web", lead.consent],
      "yes",
      "New",
      ...["", "", "@google", "", "", "", "", "", "", "", "", ""],
      `+${lead.phone.length}`,
    ];
    const text = chunks.join("");
    expect(text.slice(text.indexOf("\r\n") + 2)).toBe(cells.map(csvCell).join(",") + "\r\n");
  });

  test("writes leads whose texts hold the characters a batch is joined by, which intake refuses, exactly as stored and no lead more", async () => {
    await exported.db.execute(sql`DELETE FROM email_outbox`);
    await exported.db.execute(sql`DELETE FROM contact_requests`);
    await storeLeads(1, 3, "2026-11-04T08:00:00Z", exported);
    // A message that would read as a lead of its own if the batch were split at its characters.
    const forged = ["", "00000000-0000-4000-8000-00000000000f", "2026-11-04T09:00:00.000000", "Forged", "Lead"];
    const message = `Leak\u001f${forged.join("\u001f")}\u001eend`;
    await exported.db.execute(sql`
      UPDATE contact_requests SET message = ${message}, last_name = 'Lee\u001f'
      WHERE id = md5('lead-2')::uuid`);
    let text = "";
    for await (const chunk of contactRequestsCsv(exported)) {
      text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
    }
    const lines = text.trimEnd().split("\r\n").slice(1);
    expect(lines).toHaveLength(3);
    const lastNames = lines.map((line) => line.split(",")[3]);
    expect(new Set(lastNames)).toEqual(new Set(["Lee 1", "Lee\u001f", "Lee 3"]));
    expect(lines.find((line) => line.includes(",Lee\u001f,"))).toContain(`,${csvCell(message)},`);
    expect(text).not.toContain("Forged,");
  });
});

test("the retention purge deletes every expired lead with its email over several batches, and keeps the rest", async () => {
  await storeLeads(1, 250, new Date(Date.now() - 400 * 86_400_000).toISOString());
  await storeLeads(1_000, 3, new Date(Date.now() - 10 * 86_400_000).toISOString());
  expect(await purgeExpiredLeads(database.db)).toEqual({ contacts: 250, optOuts: 0 });
  const [left] = await executeRows<{ leads: number; emails: number }>(
    database.db,
    sql`SELECT (SELECT count(*) FROM contact_requests)::int AS leads, (SELECT count(*) FROM email_outbox)::int AS emails`,
  );
  expect(left).toEqual({ leads: 3, emails: 3 });
});

test("the embedded database's export reads leads of the longest messages in batches under 100 KB each, so none outlives V8's young generation", async () => {
  await database.db.execute(sql`DELETE FROM email_outbox`);
  await database.db.execute(sql`DELETE FROM contact_requests`);
  // 5,000 characters, with the typographic apostrophe a phone's keyboard types: two bytes a character in V8.
  const message = "It’s leaking. ".repeat(357);
  await database.db.execute(sql`
    INSERT INTO contact_requests (id, received_at, first_name, last_name, email, phone, service, message, consent_text, channel)
    SELECT md5('lead-' || n)::uuid, '2026-11-01T10:00:00Z'::timestamptz + n * interval '1 second', 'Ann', 'Lee',
      'ann@example.com', '555-' || n, 'Leak', ${message}, 'By submitting…', 'api'
    FROM generate_series(1, 300) n`);
  const batchBytes: number[] = [];
  const measured: RunStatement = async <Row>(name: string, text: string, params: unknown[]) => {
    const rows = await database.run<Row>(name, text, params);
    const batch = (rows[0] as { rows?: string | null } | undefined)?.rows;
    if (batch) batchBytes.push(2 * batch.length);
    return rows;
  };
  let lines = 0;
  for await (const chunk of contactRequestsCsv({ run: measured })) lines += String(chunk).split("\r\n").length - 1;
  expect(lines).toBe(1 + 300);
  expect(batchBytes.length).toBeGreaterThan(1);
  for (const bytes of batchBytes) expect(bytes).toBeLessThan(100 * 1024);
});

test("a download closed while its next batch is read leaves that batch's failure handled", async () => {
  await database.db.execute(sql`DELETE FROM email_outbox`);
  await database.db.execute(sql`DELETE FROM contact_requests`);
  await storeLeads(1, 501, "2026-11-01T10:00:00Z");
  // The database fails the second batch's statement, as on a lost connection.
  let statements = 0;
  const failingSecond: RunStatement = (name, text, params) =>
    ++statements === 2 ? Promise.reject(new Error("connection lost")) : database.run(name, text, params);
  const download = contactRequestsCsv({ run: failingSecond });
  await download.next(); // the header
  await download.next(); // the first batch, while the second is read
  await download.return(undefined);
  expect(statements).toBe(2);
  // An unhandled rejection would fail this file's run; the database answers the next statement.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const [left] = await executeRows<{ leads: number }>(
    database.db,
    sql`SELECT count(*)::int AS leads FROM contact_requests`,
  );
  expect(left?.leads).toBe(501);
});
