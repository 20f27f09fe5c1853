import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseEnv } from "~/config/env.server.ts";
import { openDatabase, type OpenDatabase } from "../db/db.server.ts";
import { operatorSessions, signInFailures } from "./schema.server.ts";
import { createConsoleAuth, type ConsoleAuth } from "./auth.server.ts";
import { saveOperator } from "./operators.server.ts";
import { loadSessionSecret } from "./session-secret.server.ts";
import { createSignInLimit } from "./sign-in-limit.server.ts";

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

describe("the sign-in limit", () => {
  let n = 0;
  /** A fresh account for each test, so their counts never meet. */
  const account = async () => {
    const email = `limit-${(n += 1)}@example.com`;
    await saveOperator(database.db, email, PASSWORD);
    return email;
  };
  const tryPassword = (email: string, password: string, ip: string) => auth.signIn({ email, password }, ip);

  test("20 parallel wrong passwords for one account from one address: at most 5 are checked", async () => {
    const email = await account();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => tryPassword(email, "not the password!", "192.0.2.10")),
    );
    const checked = results.filter((result) => result.outcome === "wrong").length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(checked).toBeGreaterThan(0);
    expect(results.filter((result) => result.outcome === "locked")).toHaveLength(20 - checked);
    // The right password from the same address waits too, with the time left.
    const locked = await tryPassword(email, PASSWORD, "192.0.2.10");
    expect(locked).toMatchObject({ outcome: "locked" });
    if (locked.outcome === "locked") expect(locked.retryAfterSeconds).toBeGreaterThan(14 * 60);
  });

  test("failures from one address do not stop the right password from another", async () => {
    const email = await account();
    for (let attempt = 0; attempt < 6; attempt += 1) await tryPassword(email, "not the password!", "198.51.100.7");
    expect((await tryPassword(email, PASSWORD, "198.51.100.7")).outcome).toBe("locked");
    expect((await tryPassword(email, PASSWORD, "203.0.113.9")).outcome).toBe("signed-in");
  });

  test("an IPv6 client is its /64: changing the rest of the address does not buy more guesses", async () => {
    const email = await account();
    for (let host = 1; host <= 5; host += 1) {
      expect((await tryPassword(email, "not the password!", `2001:db8:1:2::${host}`)).outcome).toBe("wrong");
    }
    expect((await tryPassword(email, PASSWORD, "2001:db8:1:2:ffff::99")).outcome).toBe("locked");
    expect((await tryPassword(email, PASSWORD, "2001:db8:1:3::1")).outcome).toBe("signed-in");
  });

  test("one address guessing at many accounts is stopped after 20 attempts", async () => {
    const outcomes = [];
    for (let guess = 0; guess < 21; guess += 1) {
      outcomes.push((await tryPassword(`nobody-${n}-${guess}@example.com`, PASSWORD, "192.0.2.77")).outcome);
    }
    expect(outcomes.slice(0, 20).every((outcome) => outcome === "wrong")).toBe(true);
    expect(outcomes[20]).toBe("locked");
  });

  test("50 failures an hour from many networks slow the account down, doubling the wait", async () => {
    const email = await account();
    for (let network = 0; network < 10; network += 1) {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await tryPassword(email, "not the password!", `10.${network}.0.1`)).outcome).toBe("wrong");
      }
    }
    const slowed = await tryPassword(email, PASSWORD, "10.99.0.1");
    expect(slowed).toEqual({ outcome: "locked", retryAfterSeconds: 1 });
    // Once the wait is over one more attempt is let through, and the next wait is twice as long.
    const key = `account:${email}`;
    const rewind = (seconds: number) =>
      database.db
        .update(signInFailures)
        .set({ lastAttemptAt: sql`now() - ${seconds} * interval '1 second'` })
        .where(eq(signInFailures.key, key));
    await rewind(1);
    expect((await tryPassword(email, "not the password!", "10.99.0.1")).outcome).toBe("wrong");
    expect(await tryPassword(email, PASSWORD, "10.98.0.1")).toEqual({ outcome: "locked", retryAfterSeconds: 2 });
    await rewind(2);
    expect((await tryPassword(email, PASSWORD, "10.98.0.1")).outcome).toBe("signed-in");
  });

  test("unlock forgets an account's attempts from every address", async () => {
    const email = await account();
    for (let attempt = 0; attempt < 5; attempt += 1) await tryPassword(email, "not the password!", "192.0.2.200");
    expect((await tryPassword(email, PASSWORD, "192.0.2.200")).outcome).toBe("locked");
    await createSignInLimit(database.db).unlock(email);
    expect((await tryPassword(email, PASSWORD, "192.0.2.200")).outcome).toBe("signed-in");
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
