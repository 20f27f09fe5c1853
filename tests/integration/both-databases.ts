import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import type { RunningServer } from "~/server/start-server.server.ts";
import { contactRequests, privacyRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { startPostgres, startSmtpPeer, type SmtpPeer, type TestPostgres } from "../../tooling/local-services.ts";

/**
 * A test file's set-up for running the same tests on the embedded database and on PostgreSQL: one embedded
 * PostgreSQL server and one real SMTP peer for the file, and a fresh database of either kind per call.
 */
export function onBothDatabases() {
  let postgres: TestPostgres;
  let smtp: SmtpPeer;
  let pgliteRoot: string;
  let pgliteDirs = 0;
  beforeAll(async () => {
    [postgres, smtp, pgliteRoot] = await Promise.all([
      startPostgres(),
      startSmtpPeer(),
      mkdtemp(join(tmpdir(), "plumbline-pglite-")),
    ]);
  });
  afterAll(async () => {
    await Promise.all([postgres?.stop(), smtp?.stop(), pgliteRoot && rm(pgliteRoot, { recursive: true, force: true })]);
  });
  return {
    get postgres() {
      return postgres;
    },
    get smtp() {
      return smtp;
    },
    /** Each driver's settings for a new, empty database; the embedded one on disk, so it outlives a restart. */
    drivers: [
      { name: "PGlite", storage: async () => ({ PGLITE_DATA_DIR: join(pgliteRoot, `db${pgliteDirs++}`) }) },
      { name: "PostgreSQL", storage: async () => ({ DATABASE_URL: await postgres.createDatabase() }) },
    ],
  };
}

/** How many contact requests, opt-out requests and emails a server's database holds. */
export async function storedRowCounts(running: RunningServer) {
  const { db } = running.services;
  const [[contacts], [privacy], [outbox]] = await Promise.all([
    db.select({ value: count() }).from(contactRequests),
    db.select({ value: count() }).from(privacyRequests),
    db.select({ value: count() }).from(emailOutbox),
  ]);
  return { contacts: contacts!.value, privacy: privacy!.value, outbox: outbox!.value };
}
