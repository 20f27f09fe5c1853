import { validate } from "@readme/openapi-parser";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { log } from "~/server/log.server.ts";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "~/server/api/index.server.ts";
import { testEnv } from "../../tooling/local-services.ts";
import { onBothDatabases } from "./both-databases.ts";

const databases = onBothDatabases();
const LEADS = 10_000;
const PER_MINUTE = 150;

describe.each(databases.drivers)("the read API on $name", ({ storage }) => {
  let running: RunningServer;
  let leadsKey: string;
  beforeAll(async () => {
    running = await startServer(testEnv({ ...(await storage()), API_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) }));
    const { db } = running.services;
    leadsKey = await createApiKey(db, { name: "CRM", scopes: ["leads:read", "calls:read"], by: "op@example.com" });
    // Three leads share each microsecond, so the pages must order ties by id.
    await db.execute(sql`INSERT INTO contact_requests (id, received_at, first_name, last_name, email, phone, service,
      message, consent_text, channel)
      SELECT gen_random_uuid(), timestamptz '2026-01-01 00:00:00+00' + (i / 3) * interval '1 microsecond',
        'Ann', 'Lee ' || i, 'ann' || i || '@example.com', '555-010-' || lpad((i % 10000)::text, 4, '0'), 'Leak',
        'Help', 'By submitting…', 'api'
      FROM generate_series(1, ${LEADS}) AS i`);
  }, 120_000);
  afterAll(() => running?.close());

  const get = (path: string, key?: string) =>
    fetch(`${running.url}${path}`, { headers: key === undefined ? {} : { Authorization: `Bearer ${key}` } });

  test(`pages through ${LEADS.toLocaleString("en-US")} leads with the cursor: every lead once, none twice, oldest first`, async () => {
    const seen: string[] = [];
    let times: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await get(`/api/v1/leads?limit=100${cursor ? `&cursor=${cursor}` : ""}`, leadsKey);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const page = (await response.json()) as {
        data: { id: string; received_at: string }[];
        next_cursor: string | null;
      };
      seen.push(...page.data.map((lead) => lead.id));
      times = times.concat(page.data.map((lead) => lead.received_at));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(LEADS);
    expect(new Set(seen).size).toBe(LEADS);
    expect([...times].sort()).toEqual(times);
  });

  test("since keeps only leads from that time on; a lead has documented snake_case fields", async () => {
    const response = await get("/api/v1/leads?since=2026-01-01T00:00:00.003Z&limit=1", leadsKey);
    const page = (await response.json()) as { data: Record<string, unknown>[] };
    expect(page.data[0]).toMatchObject({
      received_at: "2026-01-01T00:00:00.003Z",
      first_name: "Ann",
      service: "Leak",
      status: "New",
      global_privacy_control: false,
      attribution: { utm_source: null },
    });
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
    ];
    try {
      for (const parameters of impossible) {
        for (const path of ["/api/v1/leads", "/api/v1/calls"]) {
          const response = await get(`${path}?${new URLSearchParams(parameters)}`, leadsKey);
          const body = (await response.json()) as { error?: string };
          expect({ parameters, status: response.status }).toEqual({ parameters, status: 400 });
          expect(body.error).toMatch(/^(since|cursor|limit) must be /);
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

  test("the OpenAPI document validates, and its paths are the API's", async () => {
    const response = await get("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      paths: Record<string, unknown>;
      components: { schemas: { Lead: { properties: Record<string, { properties?: object }> } } };
    };
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(Object.keys(document.paths).sort()).toEqual(["/api/v1/calls", "/api/v1/leads"]);
    for (const path of Object.keys(document.paths)) expect((await get(path, leadsKey)).status).toBe(200);
    // A real lead has exactly the fields the document lists.
    const [lead] = ((await (await get("/api/v1/leads?limit=1", leadsKey)).json()) as { data: Record<string, object>[] })
      .data;
    const listed = document.components.schemas.Lead.properties;
    expect(Object.keys(lead!).sort()).toEqual(Object.keys(listed).sort());
    expect(Object.keys(lead!.attribution!).sort()).toEqual(Object.keys(listed.attribution!.properties!).sort());
  });
});
