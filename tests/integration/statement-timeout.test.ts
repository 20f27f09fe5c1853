import { count, getTableName } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServer } from "~/server/start-server.server.ts";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { postJson, startPostgres, testEnv, validContact, type TestPostgres } from "../../tooling/local-services.ts";

let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startPostgres();
});

afterAll(() => postgres?.stop());

test("on PostgreSQL, a lead that cannot be stored in time answers 503 and is not stored, even once the database frees up", async () => {
  const databaseUrl = await postgres.createDatabase();
  const running = await startServer(testEnv({ DATABASE_URL: databaseUrl, DATABASE_STATEMENT_TIMEOUT_MS: "1000" }));
  // Another session holds the table, so the lead's statement waits.
  const blocker = new pg.Client({ connectionString: databaseUrl });
  await blocker.connect();
  try {
    await blocker.query("BEGIN");
    await blocker.query(`LOCK TABLE "${getTableName(contactRequests)}" IN ACCESS EXCLUSIVE MODE`);
    const response = await postJson(running.url, validContact);
    expect(response.status).toBe(503);
    expect(response.body.error).toMatch(/could not save/);
    await blocker.query("ROLLBACK");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const [stored] = await running.services.db.select({ value: count() }).from(contactRequests);
    expect(stored!.value).toBe(0);
    expect((await postJson(running.url, validContact)).status).toBe(200);
  } finally {
    await blocker.end();
    await running.close();
  }
});
