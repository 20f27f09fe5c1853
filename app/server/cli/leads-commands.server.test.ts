import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { contactRequests, privacyRequests } from "../leads/schema.server.ts";
import { emailOutbox } from "../outbox/schema.server.ts";
import { runLeadsCommand } from "./leads-commands.server.ts";

let database: OpenDatabase;

async function run(...args: string[]) {
  let output = "";
  const code = await runLeadsCommand(database, args, (text) => (output += text), { timeZone: "America/Chicago" });
  return { code, output };
}

const DAY_MS = 86_400_000;
const optOutId = "00000000-0000-4000-8000-000000000002";
const laterOptOutId = "00000000-0000-4000-8000-000000000003";

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  const receivedAt = new Date("2026-01-05T10:00:00Z");
  await database.db.insert(contactRequests).values({
    id: "00000000-0000-4000-8000-000000000001",
    receivedAt,
    firstName: '=HYPERLINK("http://evil.example")',
    lastName: "Lee",
    email: "ann@example.com",
    phone: "555-123-4567",
    service: "Leak, urgent",
    message: 'Says "help"\nsecond line',
    consentText: "By submitting…",
    channel: "api",
  });
  await database.db.insert(privacyRequests).values([
    {
      id: laterOptOutId,
      receivedAt,
      dueAt: new Date(receivedAt.getTime() + 40 * DAY_MS),
      name: "Late",
      email: "l@example.com",
      channel: "form",
    },
    {
      // Due at 22:30 on Feb 3 in Chicago, which is already Feb 4 in UTC.
      id: optOutId,
      receivedAt,
      dueAt: new Date("2026-02-04T04:30:00Z"),
      name: "Soon",
      email: "s@example.com",
      channel: "api",
    },
  ]);
});

afterAll(() => database?.close());

describe("npm run leads", () => {
  test("exports contacts as CSV that spreadsheets will not run as formulas", async () => {
    const { code, output } = await run("export");
    expect(code).toBe(0);
    const [header, row] = output.split("\r\n");
    expect(header).toBe(
      "id,received_at,first_name,last_name,email,phone,service,message,channel,consent_text,global_privacy_control,status," +
        "landing_path,referrer_host,utm_source,utm_medium,utm_campaign,utm_term,utm_content,gclid,gbraid,wbraid,msclkid,fbclid",
    );
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(output).toContain(`"Leak, urgent","Says ""help""\nsecond line"`);
    expect(row).toMatch(/,no,New,{12}$/);
  });

  test("lists open opt-outs by due date on the operator's calendar, marks one done, and refuses an unknown id", async () => {
    const before = await run("opt-outs");
    expect(before.output.indexOf(optOutId)).toBeLessThan(before.output.indexOf(laterOptOutId));
    expect(before.output).toContain(`due 2026-02-03  ${optOutId}`);
    expect(await run("done", optOutId)).toEqual({ code: 0, output: `Opt-out request ${optOutId} marked done.\n` });
    expect((await run("opt-outs")).output).not.toContain(optOutId);
    expect((await run("done", optOutId)).code).toBe(1);
    expect((await run("list")).output).toMatch(new RegExp(`${optOutId}.*done \\d{4}-`));
  });

  test("outbox shows pending emails and, apart, failed ones with their last error", async () => {
    const email = (n: number, failedAt: Date | null, lastError: string | null) => ({
      id: `00000000-0000-4000-8000-00000000090${n}`,
      contactRequestId: "00000000-0000-4000-8000-000000000001",
      purpose: "contact_notification",
      messageId: `<m${n}@test>`,
      toAddress: `to${n}@example.com`,
      subject: "Lead",
      textBody: "text",
      htmlBody: "<p>html</p>",
      attempts: 3,
      failedAt,
      lastError,
    });
    await database.db
      .insert(emailOutbox)
      .values([email(1, null, "451 try again later"), email(2, new Date("2026-01-06T00:00:00Z"), "550 no such user")]);
    const { code, output } = await run("outbox");
    expect(code).toBe(0);
    const [pending, failed] = output.split("Failed emails");
    expect(pending).toMatch(
      /^Pending emails \(1\):\n.*to to1@example\.com {2}attempts 3 {2}next .*451 try again later/,
    );
    expect(failed).toMatch(
      /^, not retried \(1\):\n.*to to2@example\.com {2}attempts 3 {2}failed 2026-01-06T00:00:00\.000Z .*550 no such user/,
    );
  });

  test("prints usage for an unknown command", async () => {
    const { code, output } = await run("drop-everything");
    expect(code).toBe(2);
    expect(output).toContain("Usage: npm run leads");
  });
});
