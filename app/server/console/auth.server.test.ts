import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseEnv } from "~/config/env.server.ts";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { operatorSessions } from "./schema.server.ts";
import { createConsoleAuth, type ConsoleAuth } from "./auth.server.ts";
import { saveOperator } from "./operators.server.ts";
import { loadSessionSecret } from "./session-secret.server.ts";

let database: OpenDatabase;
let auth: ConsoleAuth;
const PASSWORD = "a long enough password";

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  auth = createConsoleAuth({ db: database.db, sessionSecret: "s".repeat(32), siteUrl: "https://site.example" });
  await saveOperator(database.db, "ops@example.com", PASSWORD);
});
afterAll(() => database.close());

const sessionIdOf = (setCookie: string) => /plumbline_session=([^;]+)/.exec(setCookie)![1]!;

async function signedIn(): Promise<string> {
  const result = await auth.signIn({ email: "Ops@Example.com", password: PASSWORD }, "192.0.2.1");
  if (result.outcome !== "signed-in") throw new Error(result.outcome);
  expect(result.setCookie).toContain("; Secure");
  return sessionIdOf(result.setCookie);
}

describe("console sessions", () => {
  test("the database holds only an HMAC of the session id", async () => {
    const sessionId = await signedIn();
    const rows = await database.db.select().from(operatorSessions);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.idHash).not.toContain(sessionId);
    expect(await auth.sessions.resolve(sessionId)).toMatchObject({ email: "ops@example.com" });
  });

  test("a session ends after 12 hours without use", async () => {
    const sessionId = await signedIn();
    await database.db.update(operatorSessions).set({ lastSeenAt: sql`now() - interval '12 hours 1 minute'` });
    expect(await auth.sessions.resolve(sessionId)).toBeNull();
  });

  test("a session in use is kept alive, but ends 7 days after sign-in", async () => {
    const sessionId = await signedIn();
    const [row] = await database.db
      .select()
      .from(operatorSessions)
      .orderBy(sql`${operatorSessions.createdAt} DESC`);
    await database.db
      .update(operatorSessions)
      .set({ lastSeenAt: sql`now() - interval '11 hours'`, createdAt: sql`now() - interval '6 days'` })
      .where(eq(operatorSessions.idHash, row!.idHash));
    expect(await auth.sessions.resolve(sessionId)).not.toBeNull();
    // Seen just now: the idle clock restarted.
    const [touched] = await database.db.select().from(operatorSessions).where(eq(operatorSessions.idHash, row!.idHash));
    expect(Date.now() - touched!.lastSeenAt.getTime()).toBeLessThan(60_000);

    await database.db
      .update(operatorSessions)
      .set({ createdAt: sql`now() - interval '7 days 1 minute'` })
      .where(eq(operatorSessions.idHash, row!.idHash));
    expect(await auth.sessions.resolve(sessionId)).toBeNull();
  });

  test("signing out ends the session", async () => {
    const sessionId = await signedIn();
    const cleared = await auth.signOut(`plumbline_session=${sessionId}`);
    expect(cleared).toContain("Max-Age=0");
    expect(await auth.sessions.resolve(sessionId)).toBeNull();
  });

  test("a session signed with another secret is not accepted", async () => {
    const sessionId = await signedIn();
    const other = createConsoleAuth({ db: database.db, sessionSecret: "t".repeat(32), siteUrl: "http://x.example" });
    expect(await other.sessions.resolve(sessionId)).toBeNull();
  });
});

describe("the session secret", () => {
  const root = mkdtemp(join(tmpdir(), "plumbline-secret-"));
  afterAll(async () => rm(await root, { recursive: true, force: true }));

  test("is generated once into the data folder, readable by its owner only, and reused", async () => {
    const env = parseEnv({ PGLITE_DATA_DIR: join(await root, "pglite") });
    const first = await loadSessionSecret(env);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const path = join(await root, "session-secret");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readFile(path, "utf8")).trim()).toBe(first);
    expect(await loadSessionSecret(env)).toBe(first);
  });

  test("is SESSION_SECRET when set", async () => {
    const secret = "x".repeat(40);
    expect(await loadSessionSecret(parseEnv({ SESSION_SECRET: secret, PGLITE_DATA_DIR: "/nonexistent/pglite" }))).toBe(
      secret,
    );
  });
});
