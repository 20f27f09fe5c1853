import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inArray, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase } from "~/server/db/db.server.ts";
import { makeMigratedFolder } from "../../tooling/migrated-database.ts";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { startServerProcess, type ServerProcess } from "../../tooling/server-process.ts";
import {
  freePort,
  postJson,
  startSmtpPeer,
  validContact,
  waitUntil,
  type SmtpPeer,
} from "../../tooling/local-services.ts";

const KILL_AFTER = 150;

/** The default set-up (embedded PGlite on disk), killed without warning under load, then restarted. */
describe("crash safety on the embedded database", () => {
  let smtp: SmtpPeer;
  let dir: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    [smtp, dir] = await Promise.all([startSmtpPeer(), mkdtemp(join(tmpdir(), "plumbline-crash-"))]);
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill("SIGKILL")));
    await smtp?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("SIGKILL under load loses no acknowledged lead, and after a restart each one's email is sent", async () => {
    const env = {
      PORT: String(await freePort()),
      PGLITE_DATA_DIR: join(dir, "pglite"),
      SMTP_URL: smtp.url,
      POST_RATE_LIMIT_PER_MINUTE: "100000",
      FORM_RATE_LIMIT_PER_HOUR: "100000",
      OUTBOX_POLL_MS: "200",
      OUTBOX_RETRY_BASE_MS: "100",
      OUTBOX_RETRY_MAX_MS: "1000",
      LOG_LEVEL: "debug",
    };
    await makeMigratedFolder(env.PGLITE_DATA_DIR);
    const first = await startServerProcess(env);
    servers.push(first);

    const acknowledged: string[] = [];
    let answered = 0;
    let killed: Promise<void> | undefined;
    const visitor = async (worker: number) => {
      for (let index = 0; !killed; index++) {
        const answer = await postJson(first.url, { ...validContact, service: `Job ${worker}-${index}` }).catch(
          () => undefined,
        );
        if (answer?.status === 200) acknowledged.push(answer.body.id as string);
        if (++answered === KILL_AFTER) killed = first.kill("SIGKILL");
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, worker) => visitor(worker)));
    await killed;
    expect(acknowledged.length).toBeGreaterThan(KILL_AFTER / 2);

    // Every acknowledged lead is on disk (the dead process's lock is taken over).
    const database = await openDatabase({ pgliteDataDir: env.PGLITE_DATA_DIR });
    try {
      const stored = await database.db
        .select({ id: contactRequests.id })
        .from(contactRequests)
        .where(inArray(contactRequests.id, acknowledged));
      expect(stored).toHaveLength(acknowledged.length);
      // Emails the killed process had claimed stay leased until their lease ends (minutes); the test
      // moves those leases to now instead of waiting.
      await database.db
        .update(emailOutbox)
        .set({ nextAttemptAt: sql`now()` })
        .where(isNull(emailOutbox.sentAt));
    } finally {
      await database.close();
    }

    // Restarted on the same folder, the server sends every email still owed.
    const second = await startServerProcess(env);
    servers.push(second);
    const emailed = () =>
      new Set(smtp.received.flatMap((mail) => /Request id\W+([0-9a-f-]{36})/.exec(mail.text)?.[1] ?? []));
    await waitUntil(() => acknowledged.every((id) => emailed().has(id)), 30_000);
    await second.kill("SIGTERM");
    console.info(`crash safety: ${acknowledged.length} acknowledged before the kill, all stored and emailed`);

    // Neither run's log holds a lead's email address or phone number.
    expect(first.output()).toContain('"status":200');
    for (const server of [first, second]) {
      expect(server.output()).not.toContain(validContact.email);
      expect(server.output()).not.toContain(validContact.phone);
    }
  }, 120_000);
});
