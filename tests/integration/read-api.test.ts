import { randomUUID } from "node:crypto";
import { dereference, validate } from "@readme/openapi-parser";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { executeRows } from "~/server/db/index.server.ts";
import { log } from "~/server/log.server.ts";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { API_SCOPES, createApiKey, listApiKeys, revokeApiKey } from "~/server/api/index.server.ts";
import { addPartner } from "~/server/partners/index.server.ts";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { ledgerEntries, partnerStatements } from "../../app/server/ledger/schema.server.ts";
import pg from "pg";
import { postJson, testEnv, validContact, validOptOut } from "../../tooling/local-services.ts";
import { onBothDatabases } from "./both-databases.ts";

const databases = onBothDatabases();

/**
 * A partner with a referral offered, a call, and November's ledger: an adjustment of $55.00 and a payment of
 * $20.00, then its November statement issued.
 */
async function seedPartnersAndLedger(running: RunningServer) {
  const { db, referrals } = running.services;
  const partnerId = await addPartner(db, {
    name: "Pat",
    business: "Pat's Pipes",
    phone: "555-010-0000",
    email: "pat@example.com",
    services: ["Leak"],
    zipCodes: ["10001"],
    feeMinor: null,
    serviceFees: {},
  });
  const leadId = randomUUID();
  await db.insert(contactRequests).values({
    id: leadId,
    receivedAt: new Date("2025-12-31T00:00:00Z"),
    firstName: "Dana",
    lastName: "Hill",
    email: "dana@example.com",
    phone: "(555) 014-2288",
    service: "Leak",
    message: "Drip",
    zip: "10001",
    consentText: "By submitting…",
    channel: "form",
  });
  const offered = await referrals.offer({
    leadId,
    partnerIds: [partnerId],
    operatorEmail: "op@example.com",
    optOutConfirmed: false,
  });
  expect(offered.kind).toBe("sent");
  await db.insert(ledgerEntries).values([
    {
      partnerId,
      kind: "adjustment",
      amountMinor: 5500,
      recordedAt: new Date("2026-11-10T15:00:00Z"),
      recordedBy: "op@example.com",
      note: "Setup",
    },
    {
      partnerId,
      kind: "payment",
      amountMinor: -2000,
      recordedAt: new Date("2026-11-20T15:00:00Z"),
      recordedBy: "op@example.com",
      occurredOn: "2026-11-20",
      method: "check",
    },
  ]);
  expect(await referrals.issueMonthlyStatements(new Date("2026-12-06T12:00:00Z"))).toBe(1);
  await db.execute(sql`INSERT INTO calls (id, call_sid, caller, called, line, started_at)
    VALUES (${randomUUID()}, 'CA0001', '+15550100001', '+15550100002', 'website', now() - interval '1 minute')`);
  return { leadId, partnerId };
}
const LEADS = 10_000;
const PER_MINUTE = 150;

/** A row is read as newer than a place once it is this old: the statement timeout below, and a second. */
const SETTLE_MS = 4_000;

describe.each(databases.drivers)("the read API on $name", ({ name, storage }) => {
  let running: RunningServer;
  let databaseUrl: string | undefined;
  let leadsKey: string;
  let seeded: { leadId: string; partnerId: string };
  beforeAll(async () => {
    const database = await storage();
    databaseUrl = "DATABASE_URL" in database ? database.DATABASE_URL : undefined;
    running = await startServer(
      testEnv({
        ...database,
        API_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
        DATABASE_STATEMENT_TIMEOUT_MS: String(SETTLE_MS - 1_000),
      }),
    );
    const { db } = running.services;
    leadsKey = await createApiKey(db, { name: "CRM", scopes: ["leads:read", "calls:read"], by: "op@example.com" });
    // Three leads share each microsecond, so the pages must order ties by id. The seeding is no visitor's
    // statement: on PostgreSQL it runs on a connection of its own, without the server's short statement timeout.
    const seed = `INSERT INTO contact_requests (id, received_at, first_name, last_name, email, phone, service,
      message, consent_text, channel)
      SELECT gen_random_uuid(), timestamptz '2026-01-01 00:00:00+00' + (i / 3) * interval '1 microsecond',
        'Ann', 'Lee ' || i, 'ann' || i || '@example.com', '555-010-' || lpad((i % 10000)::text, 4, '0'), 'Leak',
        'Help', 'By submitting…', 'api'
      FROM generate_series(1, ${LEADS}) AS i`;
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(seed).finally(() => client.end());
    } else await db.execute(sql.raw(seed));
    seeded = await seedPartnersAndLedger(running);
  }, 120_000);
  afterAll(() => running?.close());

  const get = (path: string, key?: string) =>
    fetch(`${running.url}${path}`, { headers: key === undefined ? {} : { Authorization: `Bearer ${key}` } });

  type Page = { data: { id: string; received_at: string }[]; has_more: boolean; next_cursor: string | null };
  /** A key of its own for each test that reads many pages: each key has its own per-minute limit. */
  const newKey = (name: string) =>
    createApiKey(running.services.db, { name, scopes: ["leads:read", "calls:read"], by: "op@example.com" });
  const page = async (query: string, key = leadsKey): Promise<Page> => {
    const response = await get(`/api/v1/leads?${query}`, key);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    return (await response.json()) as Page;
  };

  test(`pages through ${LEADS.toLocaleString("en-US")} leads newest first with the cursor, and oldest first with after: every lead once`, async () => {
    const [newestKey, oldestKey] = await Promise.all([newKey("Newest"), newKey("Oldest")]);
    const newestFirst: Page["data"] = [];
    let cursor: string | null = null;
    do {
      const read: Page = await page(`limit=100${cursor ? `&cursor=${cursor}` : ""}`, newestKey);
      newestFirst.push(...read.data);
      expect(read.has_more).toBe(read.next_cursor !== null);
      cursor = read.next_cursor;
    } while (cursor);
    // And the lead referred to a partner.
    expect(new Set(newestFirst.map((lead) => lead.id)).size).toBe(LEADS + 1);
    const times = newestFirst.map((lead) => lead.received_at);
    expect([...times].sort().reverse()).toEqual(times);

    const oldestFirst: Page["data"] = [];
    let after = "";
    for (;;) {
      const read = await page(`limit=100&after=${after}`, oldestKey);
      oldestFirst.push(...read.data);
      after = read.next_cursor!;
      if (!read.has_more) break;
    }
    expect(oldestFirst.map((lead) => lead.id)).toEqual(newestFirst.map((lead) => lead.id).reverse());
    // The last cursor is where the tool has read to: nothing newer yet, and the same cursor again.
    expect(await page(`after=${after}`)).toEqual({ data: [], has_more: false, next_cursor: after });
    // A row's id reads from it too.
    const [second] = (await page(`limit=1&after=${oldestFirst[0]!.id}`)).data;
    expect(second!.id).toBe(oldestFirst[1]!.id);
  });

  test("since is exclusive, to the millisecond; a lead has documented snake_case fields", async () => {
    // Three leads a microsecond from 00:00:00.000: 1,001 of them in and after the millisecond .003.
    const key = await newKey("Since");
    let count = 0;
    let cursor: string | null = null;
    do {
      const read: Page = await page(
        `since=2026-01-01T00:00:00.002Z&limit=100${cursor ? `&cursor=${cursor}` : ""}`,
        key,
      );
      count += read.data.length;
      cursor = read.next_cursor;
    } while (cursor);
    expect(count).toBe(1001);
    const [newest] = (await page("limit=1")).data;
    expect((await page(`since=${newest!.received_at}`)).data).toEqual([]);
    const response = await get("/api/v1/leads?since=2026-01-01T00:00:00.002Z&after=&limit=1", leadsKey);
    const read = (await response.json()) as { data: Record<string, unknown>[] };
    expect(read.data[0]).toMatchObject({
      received_at: "2026-01-01T00:00:00.003Z",
      first_name: "Ann",
      service: "Leak",
      status: "New",
      global_privacy_control: false,
      do_not_sell: false,
      attribution: { utm_source: null, gbraid: null, wbraid: null, fbclid: null },
    });
  });

  let leadNumber = 0;
  /** A lead through the site's own endpoint, as a visitor sends it: its id. */
  const createLead = async (fields: Record<string, string> = {}) => {
    leadNumber += 1;
    const answer = await postJson(running.url, { ...validContact, email: `poll${leadNumber}@example.com`, ...fields });
    expect(answer.status).toBe(200);
    return answer.body.id as string;
  };

  test("pollers as Zapier (newest first every 5 minutes, deduplicated by id) and with after= each see every one of 250 leads created between and during their polls once, the latter in order", async () => {
    const [zapierKey, afterKey] = await Promise.all([newKey("Zapier"), newKey("Make")]);
    // Zapier, when the Zap is turned on, keeps the ids it sees then and triggers for none of them.
    const seen = new Set((await page("limit=100", zapierKey)).data.map((lead) => lead.id));
    const triggered: string[] = [];
    const zapierPoll = async () => {
      for (const lead of (await page("limit=100", zapierKey)).data) {
        if (!seen.has(lead.id)) triggered.push(lead.id);
        seen.add(lead.id);
      }
    };
    // The other keeps the newest lead's id when set up, then each next_cursor, and reads while has_more.
    let after = (await page("limit=1", afterKey)).data[0]!.id;
    const readInOrder: string[] = [];
    const afterPoll = async () => {
      for (;;) {
        const read = await page(`limit=100&after=${after}`, afterKey);
        readInOrder.push(...read.data.map((lead) => lead.id));
        after = read.next_cursor!;
        if (!read.has_more) return;
      }
    };
    const created: string[] = [];
    const createLeads = async (count: number) => {
      for (let lead = 0; lead < count; lead += 1) created.push(await createLead());
    };
    // Ten rounds of 5 minutes: 15 leads between polls, 10 while both poll.
    for (let round = 0; round < 10; round += 1) {
      await createLeads(15);
      await Promise.all([zapierPoll(), afterPoll(), createLeads(10)]);
    }
    await zapierPoll();
    expect(triggered).toHaveLength(250);
    expect([...triggered].sort()).toEqual([...created].sort());
    // The newest leads settle before they are read after a place.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    await afterPoll();
    expect(readInOrder).toEqual(created);
  });

  test.runIf(name === "PostgreSQL")(
    "after= never skips a lead whose statement commits after a newer one's",
    async () => {
      const key = await newKey("Race");
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const [newest] = (await page("limit=1", key)).data;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        // A slow statement: its lead's time is when it began, before the next lead's, but it commits after.
        await client.query("BEGIN");
        const slow = await client.query<{ id: string }>(`INSERT INTO contact_requests (id, first_name, last_name, email,
          phone, service, message, consent_text, channel)
          VALUES (gen_random_uuid(), 'Sam', 'Slow', 'slow@example.com', '555-010-0000', 'Leak', 'Help', 'By submitting…', 'api')
          RETURNING id`);
        const fast = await createLead();
        const early = await page(`after=${newest!.id}`, key);
        await client.query("COMMIT");
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const late = await page(`after=${early.next_cursor}`, key);
        expect([...early.data, ...late.data].map((lead) => lead.id)).toEqual([slow.rows[0]!.id, fast]);
      } finally {
        await client.end();
      }
    },
  );

  test("a lead whose email address sent a do-not-sell request says so", async () => {
    const id = await createLead({ email: "Dana.Hill@Example.com" });
    const lead = async () => (await page("limit=10")).data.find((row) => row.id === id) as Record<string, unknown>;
    expect(await lead()).toMatchObject({ do_not_sell: false, global_privacy_control: false });
    expect((await postJson(running.url, { ...validOptOut, email: "dana.hill@example.com" })).status).toBe(200);
    expect(await lead()).toMatchObject({ do_not_sell: true, global_privacy_control: false });
  });

  test("a cursor from the oldest-first pages before is refused with the way to upgrade: pass it as after", async () => {
    const [oldest] = (await page("after=&limit=1")).data;
    const [{ at }] = (await executeRows<{ at: string }>(
      running.services.db,
      sql`SELECT received_at::text AS at FROM contact_requests WHERE id = ${oldest!.id}`,
    )) as [{ at: string }];
    const legacy = Buffer.from(JSON.stringify([at, oldest!.id])).toString("base64url");
    const refused = await get(`/api/v1/leads?cursor=${legacy}`, leadsKey);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toContain("pass it as after=");
    const [second] = (await page(`after=${legacy}&limit=1`)).data;
    expect(second!.received_at >= oldest!.received_at).toBe(true);
    expect(second!.id).not.toBe(oldest!.id);
  });

  test("no key, a malformed, a wrong or a revoked key: 401, the same answer for each", async () => {
    const revoked = await createApiKey(running.services.db, {
      name: "Old",
      scopes: ["leads:read"],
      by: "op@example.com",
    });
    const old = (await listApiKeys(running.services.db)).find((key) => key.name === "Old")!;
    expect(await revokeApiKey(running.services.db, old.id)).toBe(true);
    const answers = await Promise.all(
      [undefined, "not-a-key", `plk_${"A".repeat(43)}`, revoked].map(async (key) => {
        const response = await get("/api/v1/leads", key);
        return { status: response.status, auth: response.headers.get("www-authenticate"), body: await response.text() };
      }),
    );
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 401, auth: 'Bearer realm="api"' });
  });

  test("a key without the scope gets 403; bad parameters get 400", async () => {
    const callsOnly = await createApiKey(running.services.db, {
      name: "Calls",
      scopes: ["calls:read"],
      by: "op@example.com",
    });
    expect((await get("/api/v1/leads", callsOnly)).status).toBe(403);
    expect((await get("/api/v1/calls", callsOnly)).status).toBe(200);
    for (const query of ["limit=0", "limit=101", "since=yesterday", "cursor=abc"]) {
      expect({ query, status: (await get(`/api/v1/calls?${query}`, callsOnly)).status }).toEqual({
        query,
        status: 400,
      });
    }
  });

  test("an impossible time, cursor or limit is a 400 that says what is wrong, and logs no error", async () => {
    const errors = vi.spyOn(log, "error");
    const cursorAt = (at: string) =>
      Buffer.from(JSON.stringify([at, "00000000-0000-4000-8000-000000000000"])).toString("base64url");
    const impossible = [
      ...["2026-19-46 99:99:99+00", "+275760-09-13T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01T24:00:00Z"].map(
        (since) => ({ since }),
      ),
      ...[
        "2026-19-46 99:99:99+00",
        "+275760-09-13 00:00:00+00",
        "0000-01-01 00:00:00+00",
        "2026-01-01 10:00:00+99",
      ].map((at) => ({ cursor: cursorAt(at) })),
      ...["1e1", "99999999999999999999", "-1", "5.5", " 5", "0x10"].map((limit) => ({ limit })),
      ...["yesterday", cursorAt("2026-19-46 99:99:99+00"), "00000000-0000-4000-8000-000000000000"].map((after) => ({
        after,
      })),
      { after: "", cursor: cursorAt("2026-01-01 00:00:00+00") },
    ];
    try {
      for (const parameters of impossible) {
        for (const path of ["/api/v1/leads", "/api/v1/calls"]) {
          const response = await get(`${path}?${new URLSearchParams(parameters)}`, leadsKey);
          const body = (await response.json()) as { error?: string };
          expect({ parameters, status: response.status }).toEqual({ parameters, status: 400 });
          expect(body.error).toMatch(/^(since|cursor|limit|after) must /);
        }
      }
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  test(`more than ${PER_MINUTE} requests a minute for one key get 429 with Retry-After`, async () => {
    const busy = await createApiKey(running.services.db, {
      name: "Busy",
      scopes: ["calls:read"],
      by: "op@example.com",
    });
    const statuses: number[] = [];
    for (let request = 0; request <= PER_MINUTE; request += 1)
      statuses.push((await get("/api/v1/calls?limit=1", busy)).status);
    expect(statuses.slice(0, PER_MINUTE).every((status) => status === 200)).toBe(true);
    const limited = await get("/api/v1/calls?limit=1", busy);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("partners, referrals, ledger entries and statements are read with their scopes; a statement links to its CSV as issued", async () => {
    const { db } = running.services;
    const [leadsOnly, partnersOnly, ledgerOnly] = await Promise.all(
      (["leads:read", "partners:read", "ledger:read"] as const).map((scope) =>
        createApiKey(db, { name: scope, scopes: [scope], by: "op@example.com" }),
      ),
    );
    for (const path of ["/api/v1/partners", "/api/v1/referrals", "/api/v1/ledger-entries", "/api/v1/statements"]) {
      expect((await get(path, leadsOnly)).status).toBe(403);
      const allowed = path.includes("ledger") || path.includes("statements") ? ledgerOnly : partnersOnly;
      const response = await get(path, allowed);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    }
    const referral = (await (await get("/api/v1/referrals?limit=1", partnersOnly)).json()) as {
      data: { lead_id: string; partner_id: string; answer: string | null }[];
    };
    expect(referral.data[0]).toMatchObject({ lead_id: seeded.leadId, partner_id: seeded.partnerId, answer: null });
    const entries = (await (await get("/api/v1/ledger-entries?after=", ledgerOnly)).json()) as {
      data: { kind: string; amount_minor: number }[];
    };
    expect(entries.data.map(({ kind, amount_minor }) => [kind, amount_minor])).toEqual([
      ["adjustment", 5500],
      ["payment", -2000],
    ]);
    const statements = (await (await get("/api/v1/statements", ledgerOnly)).json()) as {
      data: { id: string; period: string; closing_minor: number; amount_due_minor: number; csv_url: string }[];
    };
    expect(statements.data[0]).toMatchObject({ period: "2026-11", closing_minor: 3500, amount_due_minor: 3500 });
    const csvUrl = new URL(statements.data[0]!.csv_url);
    expect(csvUrl.origin).toBe(new URL(running.url).origin);
    const [stored] = await db.select().from(partnerStatements).where(eq(partnerStatements.id, statements.data[0]!.id));
    const csv = await get(csvUrl.pathname, ledgerOnly);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(await csv.text()).toBe(stored!.csv);
    expect((await get(csvUrl.pathname, partnersOnly)).status).toBe(403);
    expect((await get("/api/v1/statements/00000000-0000-4000-8000-000000000000.csv", ledgerOnly)).status).toBe(404);
  });

  test("the OpenAPI document validates, and every list's real answer matches it, field for field", async () => {
    const response = await get("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    const document = (await response.json()) as { paths: Record<string, unknown> };
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    const lists = Object.keys(document.paths).filter((path) => !path.includes("{"));
    expect(lists.sort()).toEqual(
      ["calls", "leads", "partners", "referrals", "ledger-entries", "statements"]
        .map((name) => `/api/v1/${name}`)
        .sort(),
    );
    const everything = await createApiKey(running.services.db, {
      name: "Everything",
      scopes: [...API_SCOPES],
      by: "op@example.com",
    });
    const resolved = (await dereference(structuredClone(document) as never)) as unknown as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: Schema }> }> } }>;
    };
    for (const path of lists) {
      for (const query of ["", "?after="]) {
        const answer = await get(`${path}${query}`, everything);
        expect(answer.status).toBe(200);
        const body: unknown = await answer.json();
        expect((body as { data: unknown[] }).data.length, path).toBeGreaterThan(0);
        const schema = resolved.paths[path]!.get.responses["200"]!.content["application/json"]!.schema;
        expect({ path, query, mismatches: mismatches(schema, body) }).toEqual({ path, query, mismatches: [] });
      }
    }
  });
});

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

const typeOf = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;

/**
 * Where a real answer differs from its schema: the types, enums, formats and required fields the document uses,
 * and, for objects, exactly the fields it lists (the API writes every field, null when unknown).
 */
function mismatches(schema: Schema, value: unknown, at = "$"): string[] {
  const actual = typeOf(value);
  const types = schema.type === undefined ? undefined : [schema.type].flat();
  if (types && !types.includes(actual) && !(actual === "integer" && types.includes("number"))) {
    return [`${at}: ${actual}, not ${types.join(" or ")}`];
  }
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${String(value)} is not one of ${schema.enum}`];
  if (typeof value === "string") {
    const formats: Record<string, (text: string) => boolean> = {
      "date-time": (text) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(text),
      uuid: (text) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(text),
      uri: (text) => URL.canParse(text),
    };
    if (schema.format && formats[schema.format] && !formats[schema.format]!(value)) {
      return [`${at}: ${value} is not a ${schema.format}`];
    }
  }
  if (Array.isArray(value) && schema.items) {
    return value.flatMap((item, index) => mismatches(schema.items!, item, `${at}[${index}]`));
  }
  if (actual === "object" && schema.properties) {
    const fields = value as Record<string, unknown>;
    const listed = Object.keys(schema.properties);
    return [
      ...Object.keys(fields)
        .filter((field) => !listed.includes(field))
        .map((field) => `${at}.${field}: not in the document`),
      ...listed
        .filter((field) => !(field in fields))
        .map((field) => `${at}.${field}: listed${schema.required?.includes(field) ? " and required" : ""}, missing`),
      ...listed
        .filter((field) => field in fields)
        .flatMap((field) => mismatches(schema.properties![field]!, fields[field], `${at}.${field}`)),
    ];
  }
  return [];
}
