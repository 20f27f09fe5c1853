import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import type { OpenDatabase } from "../db/db.server.ts";
import { leadTextCountColumns } from "./threads.server.ts";

/** The leads CSV's texts column counts every texted number, however many there are. */

describe.each(databasesToOpen())("on $name", ({ open }) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(() => database?.close());

  test("the leads CSV's texts column has no column before any text, then every number's count, past a thousand numbers", async () => {
    expect(await leadTextCountColumns(database.db)).toEqual([]);
    // 2,500 numbers, +15550100000 to +15550102499; every tenth texted twice.
    await database.db.execute(sql`
    INSERT INTO text_messages (id, customer, ours, direction, body, status, purpose)
    SELECT gen_random_uuid(), '+1555010' || lpad(n::text, 4, '0'), '+15550000000', 'in', 'Hello', 'received',
      'customer_text'
    FROM generate_series(0, 2499) n, generate_series(1, 2) k WHERE k = 1 OR n % 10 = 0`);
    const [texts] = await leadTextCountColumns(database.db);
    expect(texts?.header).toBe("texts");
    // Leads write their numbers in any way; numbers compare by their last 10 digits.
    expect(texts?.cell("(555) 010-0000")).toBe("2");
    expect(texts?.cell("555.010.0001")).toBe("1");
    expect(texts?.cell("+1 555 010 1000")).toBe("2");
    expect(texts?.cell("555-010-2499")).toBe("1");
    expect(texts?.cell("555-010-2500")).toBe("0");
    const counted = Array.from({ length: 2_500 }, (_, n) =>
      Number(texts?.cell(`555-010-${String(n).padStart(4, "0")}`)),
    );
    expect(counted.reduce((sum, one) => sum + one, 0)).toBe(2_750);
    expect(counted.every((one) => one >= 1)).toBe(true);
  });
});
