import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { getPriority, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { gunzipSync, gzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { eq, inArray, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { executeRows, openDatabase } from "~/server/db/index.server.ts";
import { createBackups, restoreBackup, verifyBackup } from "~/server/backups/index.server.ts";
import { contactRequests, leadChanges, leadDayTotals, leadDayVersions } from "../../app/server/leads/schema.server.ts";
import { leadOutcomesBySource, updateLead } from "~/server/leads/index.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { backups as backupRows } from "../../app/server/backups/schema.server.ts";
import { databaseFacts } from "../../app/server/backups/database-facts.server.ts";
import { startServerProcess, type ServerProcess } from "../../tooling/server-process.ts";
import { freePort, postJson, startPostgres, validContact, type TestPostgres } from "../../tooling/local-services.ts";
import { contactRequestRow } from "../../tooling/stored-rows.ts";
import { makeMigratedFolder } from "../../tooling/migrated-database.ts";

/**
 * Backups that restore: made while the server takes leads, checked against their checksum, restored into an empty
 * database (embedded or PostgreSQL) with every acknowledged lead, and the embedded database copied to PostgreSQL.
 */

function runScript(script: string, args: string[], env: Record<string, string>, stdin = "") {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
      env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "warn", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/**
 * An operator signed in: rows in tables that reference others (a session and its operator), which a restore must
 * insert in that order.
 */
async function signedInOperator(url: string, env: Record<string, string>) {
  const added = await runScript("operator", ["add", "owner@example.com"], env, "a long enough password\n");
  expect(added.code, added.stderr).toBe(0);
  const signedIn = await fetch(`${url}/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: url },
    body: new URLSearchParams({ email: "owner@example.com", password: "a long enough password" }),
    redirect: "manual",
  });
  expect(signedIn.status).toBe(303);
  expect(signedIn.headers.get("set-cookie")).not.toBeNull();
}

let root: string;
let postgres: TestPostgres;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "plumbline-backups-"));
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
  await rm(root, { recursive: true, force: true });
});

/**
 * Posts a lead every tenth of a second until `stop` resolves; resolves to the emails of those answered with success.
 * Faster adds nothing a test looks at: a busier server slows the backup's verification, which runs at a lower CPU
 * priority, and a longer verification draws more leads (BENCHMARKS, "The backups test's leads").
 */
async function leadsUntil(url: string, prefix: string, stop: Promise<unknown>): Promise<string[]> {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const acknowledged: string[] = [];
  for (let index = 0; !stopped; index += 1) {
    const email = `${prefix}.${index}@example.com`;
    const answer = await postJson(url, { ...validContact, email });
    expect(answer.status).toBe(200);
    acknowledged.push(email);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return acknowledged;
}

async function storedEmails(database: { databaseUrl?: string; pgliteDataDir: string }, emails: string[]) {
  const opened = await openDatabase(database);
  try {
    const rows = await opened.db
      .select({ email: contactRequests.email })
      .from(contactRequests)
      .where(inArray(contactRequests.email, emails));
    return rows.map((row) => row.email).sort();
  } finally {
    await opened.close();
  }
}

/** Every lead of this test comes from this machine. */
const LIMITS = { POST_RATE_LIMIT_PER_MINUTE: "100000", FORM_RATE_LIMIT_PER_HOUR: "100000" };

const backupPath = (stdout: string) => /to (\S+\.gz) \(/.exec(stdout)?.[1] ?? "";

/** The mail in the project's own outbox folder, where `npm start` writes it when no SMTP_URL is set. */
const projectOutboxFiles = () =>
  readdir(join(process.cwd(), "data", "outbox")).then(
    (files) => files.length,
    () => 0,
  );

describe("backups of the embedded database", () => {
  let server: ServerProcess | undefined;
  afterAll(() => server?.kill("SIGTERM"));

  test(
    "made while the server takes leads, owner-only; restored into an emptied data folder with every lead acknowledged before it; a damaged copy is refused",
    { timeout: 180_000 },
    async () => {
      const dataDir = join(root, "data", "pglite");
      const backupDir = join(root, "data", "backups");
      const env = {
        ...LIMITS,
        PORT: String(await freePort()),
        PGLITE_DATA_DIR: dataDir,
        BACKUP_DIR: backupDir,
        DATABASE_URL: "",
      };
      const projectOutboxBefore = await projectOutboxFiles();
      await makeMigratedFolder(dataDir);
      server = await startServerProcess(env);
      await signedInOperator(server.url, env);
      const before = await leadsUntil(server.url, "before", new Promise((resolve) => setTimeout(resolve, 1_000)));
      // More leads arrive while the backup runs: each is answered with success (a backup holds no one up for long).
      const backup = runScript("backup", [], env);
      const during = await leadsUntil(server.url, "during", backup);
      const made = await backup;
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toContain("Verified");
      const file = backupPath(made.stdout);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(`${file}.sha256`)).mode & 0o777).toBe(0o600);
      expect((await stat(backupDir)).mode & 0o777).toBe(0o700);
      expect(during.length).toBeGreaterThan(0);

      await server.kill("SIGTERM");
      server = undefined;
      // The leads' emails went to the tests' outbox, not into the project's ./data.
      expect(await projectOutboxFiles()).toBe(projectOutboxBefore);
      // A restore refuses a folder that holds a database.
      const refused = await runScript("restore", [file], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("is not empty");

      await rm(dataDir, { recursive: true, force: true });
      const restored = await runScript("restore", [file], env);
      expect(restored.code, restored.stderr).toBe(0);
      expect(await storedEmails({ pgliteDataDir: dataDir }, before)).toEqual([...before].sort());
      // The restored tables have no planner statistics: the server's housekeeping at start makes them.
      server = await startServerProcess(env);
      await vi.waitFor(() => expect(server?.output()).toMatch(/planner statistics made for .*\bcontact_requests\b/), {
        timeout: 30_000,
      });
      await server.kill("SIGTERM");
      server = undefined;

      // A truncated copy and an altered one are refused before anything is written.
      const truncated = join(root, "truncated.pglite.gz");
      await writeFile(truncated, await readFile(file));
      await writeFile(`${truncated}.sha256`, await readFile(`${file}.sha256`));
      await truncate(truncated, 1_000);
      const altered = join(root, "altered.pglite.gz");
      const bytes = await readFile(file);
      const middle = bytes.length >> 1;
      bytes.writeUInt8(bytes.readUInt8(middle) ^ 0xff, middle);
      await writeFile(altered, bytes);
      await writeFile(`${altered}.sha256`, await readFile(`${file}.sha256`));
      const elsewhere = join(root, "elsewhere");
      const answer = await runScript("restore", [truncated], { ...env, PGLITE_DATA_DIR: elsewhere });
      expect(answer.code).toBe(1);
      expect(answer.stderr).toContain("damaged or incomplete");
      expect((await runScript("restore", ["--verify", altered], env)).code).toBe(1);
      // What the command lines print is the restore's and the verification's own answer.
      for (const damaged of [truncated, altered]) {
        for (const outcome of [
          await restoreBackup(damaged, { pgliteDataDir: elsewhere }),
          await verifyBackup(damaged),
        ]) {
          expect(outcome).toEqual({ kind: "refused", message: expect.stringContaining("damaged or incomplete") });
        }
      }
      await expect(stat(elsewhere)).rejects.toThrow();

      // copy-to: the restored embedded database into an empty PostgreSQL database.
      const target = await postgres.createDatabase();
      const copied = await runScript("db", ["copy-to", target], env);
      expect(copied.code, copied.stderr).toBe(0);
      expect(copied.stdout).toContain("set DATABASE_URL");
      expect(await storedEmails({ databaseUrl: target, pgliteDataDir: "" }, before)).toEqual([...before].sort());
      expect((await runScript("db", ["copy-to", target], env)).stderr).toContain("not empty");
    },
  );
});

test(
  "PostgreSQL: backed up while the server takes leads, restored into an empty database with every lead acknowledged before it",
  { timeout: 120_000 },
  async () => {
    const databaseUrl = await postgres.createDatabase();
    const env = {
      ...LIMITS,
      PORT: String(await freePort()),
      DATABASE_URL: databaseUrl,
      PGLITE_DATA_DIR: join(root, "unused"),
      BACKUP_DIR: join(root, "pg-backups"),
    };
    const server = await startServerProcess(env);
    try {
      await signedInOperator(server.url, env);
      const before = await leadsUntil(server.url, "pg-before", new Promise((resolve) => setTimeout(resolve, 1_000)));
      const backup = runScript("backup", [], env);
      await leadsUntil(server.url, "pg-during", backup);
      const made = await backup;
      expect(made.code, made.stderr).toBe(0);
      const target = await postgres.createDatabase();
      const restored = await runScript("restore", [backupPath(made.stdout)], { ...env, DATABASE_URL: target });
      expect(restored.code, restored.stderr).toBe(0);
      expect(await storedEmails({ databaseUrl: target, pgliteDataDir: "" }, before)).toEqual([...before].sort());
    } finally {
      await server.kill("SIGTERM");
    }
  },
);

/** Backups made by hand into `dir`, as `npm run backup` makes them. */
const settingsFor = (dir: string) => ({
  dir,
  dailyAt: null,
  timeZone: "America/New_York",
  leadsEmailTo: "owner@plumbline.example",
  companyName: "Plumbline",
  siteUrl: "https://plumbline.example",
  messageIdDomain: "plumbline.example",
});

test(
  "an embedded backup read while the database changes (a lead deleted, a unique value taken by another row) restores without the rows that went, its counts matching",
  { timeout: 90_000 },
  async () => {
    const database = await openDatabase({ pgliteDataDir: "memory://" });
    try {
      const [kept, purged] = await database.db
        .insert(contactRequests)
        .values(["kept", "purged"].map((name) => ({ ...contactRequestRow(), email: `${name}@example.com` })))
        .returning({ id: contactRequests.id });
      await database.db
        .insert(leadChanges)
        .values(
          [kept!, purged!].map((row) => ({ contactRequestId: row.id, changedBy: "owner@example.com", note: "Called" })),
        );
      await database.db
        .insert(backupRows)
        .values({ file: "plumbline-20261101T083000Z.pglite.gz", createdAt: new Date(), sizeBytes: 1, counts: {} });
      // The retention purge deletes a lead (and, by its foreign key, its history) once the backup has read the
      // history and before it reads the leads.
      let deleted = false;
      const run: typeof database.run = async <Row>(name: string, text: string, params: unknown[]) => {
        if (name.startsWith("backup-contact_requests") && !deleted) {
          deleted = true;
          await database.db.delete(contactRequests).where(eq(contactRequests.id, purged!.id));
        }
        const rows = await database.run<Row>(name, text, params);
        if (name === "backup-backups-first") {
          // A row read later holds the same unique value, as when a value moves from one row to a new one between
          // two statements of the read.
          // The statement's rows come as one text, joined by its second parameter.
          const batch = rows[0] as { rows: string; count: number };
          const moved = { ...JSON.parse(batch.rows), id: randomUUID() };
          const separator = params[1] as string;
          return [
            { rows: batch.rows + separator + JSON.stringify(moved), count: batch.count + 1, last: [moved.id] } as Row,
          ];
        }
        return rows;
      };
      const backups = createBackups({
        db: database.db,
        run,
        settings: settingsFor(join(root, "while-deleting")),
        // The verification's restore, with its counts less the rows left out, is the same as the one below.
        verify: () => Promise.resolve(null),
      });
      const made = await backups.backUpNow();
      expect(deleted).toBe(true);
      expect(made.problem).toBeNull();

      const target = join(root, "restored-while-deleting");
      const restored = await restoreBackup(made.path, { pgliteDataDir: target });
      expect(restored).toMatchObject({ kind: "restored", leftOut: { lead_changes: 1, backups: 1 } });
      const opened = await openDatabase({ pgliteDataDir: target });
      try {
        expect(await opened.db.select({ email: contactRequests.email }).from(contactRequests)).toEqual([
          { email: "kept@example.com" },
        ]);
        expect(await opened.db.select({ id: leadChanges.contactRequestId }).from(leadChanges)).toEqual([
          { id: kept!.id },
        ]);
        expect(await opened.db.select({ file: backupRows.file }).from(backupRows)).toEqual([
          { file: "plumbline-20261101T083000Z.pglite.gz" },
        ]);
        // The indexes set aside while the rows loaded are all there again.
        const indexes = (db: typeof database.db) =>
          db.execute(sql`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`);
        expect(await indexes(opened.db)).toEqual(await indexes(database.db));
        // So are the foreign keys.
        const foreignKeys = (db: typeof database.db) =>
          executeRows(
            db,
            sql`SELECT conrelid::regclass::text AS "table", conname, pg_get_constraintdef(oid) AS definition
              FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace ORDER BY 1, 2`,
          );
        expect(await foreignKeys(opened.db)).toEqual(await foreignKeys(database.db));
        expect((await foreignKeys(database.db)).length).toBeGreaterThan(5);
      } finally {
        await opened.close();
      }
    } finally {
      await database.close();
    }
  },
);

test(
  "the leads' daily totals are left out of a backup and summed again from the restored leads, whose triggers are on again",
  { timeout: 90_000 },
  async () => {
    const database = await openDatabase({ pgliteDataDir: "memory://" });
    const target = { databaseUrl: await postgres.createDatabase(), pgliteDataDir: "unused" };
    try {
      const DAY_MS = 86_400_000;
      const lead = (daysAgo: number) => ({
        ...contactRequestRow(),
        receivedAt: new Date(Date.now() - daysAgo * DAY_MS),
        utmSource: "google",
        utmCampaign: "spring",
      });
      const [booked, spam] = [lead(4), lead(3)];
      await database.db.insert(contactRequests).values([booked, spam]);
      await database.db.insert(leadChanges).values({
        contactRequestId: booked.id,
        changedAt: new Date(Date.now() - 2 * DAY_MS),
        changedBy: "owner@example.com",
        statusTo: "Booked",
      });
      const period = [new Date(Date.now() - 30 * DAY_MS), new Date(Date.now() + DAY_MS)] as const;
      const outcomes = (db: typeof database.db) => leadOutcomesBySource(db, ...period, "UTC");
      const before = await outcomes(database.db);
      expect(before).toEqual([{ source: "google", campaign: "spring", leads: 2, booked: 1 }]);
      expect(await database.db.$count(leadDayTotals)).toBeGreaterThan(0);

      const backups = createBackups({
        db: database.db,
        run: database.run,
        settings: settingsFor(join(root, "derived")),
        // The verification's restore is the same as the one below.
        verify: () => Promise.resolve(null),
      });
      const made = await backups.backUpNow();
      expect(made.problem).toBeNull();
      const restored = await restoreBackup(made.path, target);
      expect(restored).toMatchObject({ kind: "restored", leftOut: {} });
      if (restored.kind !== "restored") return;
      expect(restored.header.tables).toContain("contact_requests");
      expect(restored.header.tables).not.toContain("lead_day_totals");
      expect(restored.header.tables).not.toContain("lead_day_versions");

      const opened = await openDatabase(target);
      try {
        // No trigger fired for the rows the restore loaded: no day's version was raised.
        expect(await opened.db.$count(leadDayVersions)).toBe(0);
        expect(await outcomes(opened.db)).toEqual(before);
        // The triggers are on again: a lead marked Spam leaves its day's figures at once.
        expect(await updateLead(opened.db, spam.id, { status: "Spam", note: null }, "owner@example.com")).toBeTruthy();
        expect(await outcomes(opened.db)).toEqual([{ source: "google", campaign: "spring", leads: 1, booked: 1 }]);
      } finally {
        await opened.close();
      }
    } finally {
      await database.close();
    }
  },
);

test(
  "a backup of the embedded data folder, as the previous version made them, still restores and verifies",
  { timeout: 90_000 },
  async () => {
    const source = join(root, "version-1-source");
    const opened = await openDatabase({ pgliteDataDir: source });
    await opened.db.insert(contactRequests).values({ ...contactRequestRow(), email: "version1@example.com" });
    await opened.close();
    // Version 1: a header line with the counts, then the data folder's tar file.
    const client = await PGlite.create(source, { extensions: { pg_trgm } });
    const facts = await databaseFacts(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
    const tar = Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer());
    await client.close();
    const header = { format: "plumbline-backup", version: 1, database: "pglite", createdAt: new Date().toISOString() };
    const file = join(root, "plumbline-20261125T033000Z.pglite.gz");
    const bytes = gzipSync(Buffer.concat([Buffer.from(`${JSON.stringify({ ...header, ...facts })}\n`), tar]));
    await writeFile(file, bytes);
    await writeFile(`${file}.sha256`, `${createHash("sha256").update(bytes).digest("hex")}  ${basename(file)}\n`);

    expect(await verifyBackup(file)).toMatchObject({ kind: "restored" });
    const target = join(root, "version-1-restored");
    expect(await restoreBackup(file, { pgliteDataDir: target })).toMatchObject({ kind: "restored" });
    expect(await storedEmails({ pgliteDataDir: target }, ["version1@example.com"])).toEqual(["version1@example.com"]);
  },
);

/** The niceness of every process started by this one whose command line holds `marker`, looked at until `done`. */
async function nicenessOfChildren(marker: string, done: Promise<unknown>): Promise<number[]> {
  const seen = new Set<number>();
  let finished = false;
  const finish = () => (finished = true);
  done.then(finish, finish);
  while (!finished) {
    for (const pid of (await readdir("/proc")).filter((name) => /^\d+$/.test(name))) {
      try {
        const status = await readFile(`/proc/${pid}/stat`, "utf8");
        // The parent's pid is the second field after the command's name, which is in parentheses.
        const parent = Number(status.slice(status.lastIndexOf(")") + 2).split(" ")[1]);
        const commandLine = await readFile(`/proc/${pid}/cmdline`, "utf8");
        if (parent === process.pid && commandLine.includes(marker)) seen.add(getPriority(Number(pid)));
      } catch {
        // The process ended while it was looked at.
      }
    }
    await delay(200);
  }
  return [...seen];
}

test("a backup folder named relative to where the server was started is verified, wherever the project is, by a process at a lower CPU priority than the server's", async () => {
  const database = await openDatabase({ pgliteDataDir: "memory://" });
  const startedIn = process.cwd();
  const operatorsFolder = join(root, "operators-folder");
  await mkdir(operatorsFolder);
  // The server runs from the operator's own folder, with BACKUP_DIR=backups; the project is elsewhere.
  process.chdir(operatorsFolder);
  try {
    const backups = createBackups({ db: database.db, run: database.run, settings: settingsFor("backups") });
    const backingUp = backups.backUpNow();
    // On a machine with few cores the site's requests come first: the verification takes the CPU they leave.
    const niceness = await nicenessOfChildren("--verify", backingUp);
    const made = await backingUp;
    expect(made.problem).toBeNull();
    expect((await stat(join(operatorsFolder, made.path))).isFile()).toBe(true);
    expect(niceness).toEqual([Math.min(19, getPriority() + 10)]);
  } finally {
    process.chdir(startedIn);
    await database.close();
  }
});

test("the daily backup is made once a day after its time, verified, and a day without a verified one emails the operator once", async () => {
  const database = await openDatabase({ pgliteDataDir: "memory://" });
  try {
    let verdict: string | null = "tables: 1 rows, the backup has 2";
    const backups = createBackups({
      db: database.db,
      run: database.run,
      settings: { ...settingsFor(join(root, "daily")), dailyAt: "03:30" },
      verify: () => Promise.resolve(verdict),
    });
    // 03:29 and 03:31 New York time (EST, UTC-5).
    await backups.tick(new Date("2026-11-25T08:29:00Z"));
    expect(await database.db.$count(backupRows)).toBe(0);
    await backups.tick(new Date("2026-11-25T08:31:00Z"));
    await backups.tick(new Date("2026-11-25T09:00:00Z"));
    const [failed] = await database.db.select().from(backupRows);
    expect(await database.db.$count(backupRows)).toBe(1);
    expect(failed).toMatchObject({ verifiedAt: null, verifyError: "tables: 1 rows, the backup has 2" });

    // 26 hours without a verified backup: one email, however often it is checked.
    const warnings = () => database.db.$count(emailOutbox, eq(emailOutbox.purpose, "backup_warning"));
    expect(await warnings()).toBe(0);
    await database.db.execute(sql`UPDATE backup_watch SET watching_since = now() - interval '27 hours'`);
    await backups.tick(new Date("2026-11-25T10:00:00Z"));
    await backups.tick(new Date("2026-11-25T10:01:00Z"));
    expect(await warnings()).toBe(1);

    verdict = null;
    await backups.tick(new Date("2026-11-26T08:31:00Z"));
    const rows = await database.db.select().from(backupRows);
    expect(rows.filter((row) => row.verifiedAt !== null)).toHaveLength(1);
  } finally {
    await database.close();
  }
});

/**
 * A backup of a small database, made once for the tests that restore it or an altered copy of it: a lead and its
 * history, and one received 400 days ago, past the leads' retention.
 */
let smallBackup: Promise<string> | undefined;
const smallBackupFile = () =>
  (smallBackup ??= (async () => {
    const database = await openDatabase({ pgliteDataDir: "memory://" });
    try {
      const recent = { ...contactRequestRow(), email: "recent@example.com" };
      const expired = {
        ...contactRequestRow(),
        email: "expired@example.com",
        receivedAt: new Date(Date.now() - 400 * 86_400_000),
      };
      await database.db.insert(contactRequests).values([recent, expired]);
      await database.db.insert(leadChanges).values(
        [recent, expired].map((lead) => ({
          contactRequestId: lead.id,
          changedBy: "owner@example.com",
          note: "Called",
        })),
      );
      const backups = createBackups({
        db: database.db,
        run: database.run,
        settings: settingsFor(join(root, "small")),
        verify: () => Promise.resolve(null),
      });
      return (await backups.backUpNow()).path;
    } finally {
      await database.close();
    }
  })());

/**
 * A copy of a backup file with its lines changed by `change` (the header first, the counts last), written as this
 * site writes one (the counts a gzip member of their own), and a checksum made for it, as anyone could.
 */
async function alteredBackup(file: string, name: string, change: (lines: string[]) => string[]) {
  const lines = change(
    gunzipSync(await readFile(file))
      .toString("utf8")
      .split("\n")
      .slice(0, -1),
  );
  const member = (part: string[]) => (part.length > 0 ? gzipSync(`${part.join("\n")}\n`) : Buffer.alloc(0));
  const bytes = Buffer.concat([member(lines.slice(0, 1)), member(lines.slice(1, -1)), member(lines.slice(-1))]);
  return withChecksum(name, bytes);
}

/** `bytes` written to `name` with a checksum beside it, as anyone could make one. */
async function withChecksum(name: string, bytes: Buffer) {
  const path = join(root, name);
  await writeFile(path, bytes);
  await writeFile(`${path}.sha256`, `${createHash("sha256").update(bytes).digest("hex")}  ${name}\n`);
  return path;
}

/** The tables a PostgreSQL database holds, and how many of their triggers are disabled. */
async function tablesAndDisabledTriggers(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
    );
    const disabled = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_trigger WHERE tgenabled = 'D'",
    );
    return { tables: tables.rows[0]!.n, disabledTriggers: disabled.rows[0]!.n };
  } finally {
    await client.end();
  }
}

/** Every folder's and file's permissions under `folder`, the ones that differ from owner-only. */
async function notOwnerOnly(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    const mode = (await stat(path)).mode & 0o777;
    if (entry.isDirectory() ? mode !== 0o700 : mode !== 0o600) found.push(`${path} ${mode.toString(8)}`);
  }
  return found;
}

test(
  "a restore onto a new machine makes its data folder, and leaves it and every file in it its owner's only",
  { timeout: 60_000 },
  async () => {
    const data = join(root, "new-machine", "data");
    const restored = await restoreBackup(await smallBackupFile(), { pgliteDataDir: join(data, "pglite") });
    expect(restored).toMatchObject({ kind: "restored" });
    expect((await stat(data)).mode & 0o777).toBe(0o700);
    expect((await stat(join(data, "pglite"))).mode & 0o777).toBe(0o700);
    expect(await notOwnerOnly(data)).toEqual([]);
    expect(await readdir(data)).toEqual(["pglite"]);
  },
);

test(
  "a backup whose rows stop fitting their tables halfway restores nothing, on either database: the target is as empty as it was, and takes the whole backup after",
  { timeout: 90_000 },
  async () => {
    const good = await smallBackupFile();
    // The leads load, then a row of their history does not fit its table.
    const bad = await alteredBackup(good, "halfway.pglite.gz", (lines) =>
      lines.map((line) => line.replace(/"changed_at":"[^"]*"/, '"changed_at":"not a time"')),
    );
    const databaseUrl = await postgres.createDatabase();
    const folder = join(root, "halfway");
    const dataDir = join(folder, "pglite");
    for (const target of [{ databaseUrl }, { pgliteDataDir: dataDir }]) {
      const failed = await restoreBackup(bad, target);
      expect(failed).toMatchObject({ kind: "failed", message: expect.stringContaining("not a time") });
    }
    expect(await tablesAndDisabledTriggers(databaseUrl)).toEqual({ tables: 0, disabledTriggers: 0 });
    expect(await readdir(folder)).toEqual([]);

    for (const target of [{ databaseUrl }, { pgliteDataDir: dataDir }]) {
      expect(await restoreBackup(good, target)).toMatchObject({ kind: "restored" });
    }
    expect(await tablesAndDisabledTriggers(databaseUrl)).toMatchObject({ disabledTriggers: 0 });
  },
);

/** A command line's answer that says what was wrong in words: one exit code, no stack trace. */
function expectRefusal(answer: { code: number | null; stderr: string }, reason: RegExp) {
  expect(answer.stderr).toMatch(reason);
  expect(answer.stderr).not.toMatch(/^\s+at /m);
  expect(answer.code).toBe(1);
}

test(
  "a file made to unzip to gigabytes, or whose first line never ends, is refused as it is read, saying why, and leaves no scratch database",
  { timeout: 90_000 },
  async () => {
    const lines = gunzipSync(await readFile(await smallBackupFile()))
      .toString("utf8")
      .split("\n");
    const [header, counts] = [lines[0]!, lines.at(-2)!];
    const withoutStatedSize = JSON.stringify({ ...JSON.parse(counts), rowBytes: undefined });
    await mkdir(join(root, "bombs"));
    // 4.5 MB of file, 4.5 GB unzipped: 16 MB of spaces gzipped once and repeated.
    const spaces = gzipSync(Buffer.alloc(16 * 1024 * 1024, " "));
    const gigabytes = Array<Buffer>(280).fill(spaces);
    const bomb = (last: string) => Buffer.concat([gzipSync(`${header}\n[0,`), ...gigabytes, gzipSync(`${last}\n`)]);
    const files = await Promise.all([
      withChecksum("bombs/stated.pglite.gz", bomb(counts)),
      withChecksum("bombs/unstated.pglite.gz", bomb(withoutStatedSize)),
      withChecksum("bombs/header.pglite.gz", Buffer.concat([...gigabytes, gzipSync(`${counts}\n`)])),
    ]);
    const answers = await Promise.all(files.map((file) => runScript("restore", ["--verify", file], {})));
    expectRefusal(answers[0]!, /stated\.pglite\.gz unzips to more than the \d+ bytes it says it holds/);
    expectRefusal(answers[1]!, /unstated\.pglite\.gz has a line longer than 16 MB/);
    expectRefusal(answers[2]!, /header\.pglite\.gz has a line longer than 1 MB/);
    expect((await readdir(join(root, "bombs"))).filter((name) => !/\.gz(\.sha256)?$/.test(name))).toEqual([]);
  },
);

test(
  "a truncated backup whose checksum was made again is refused as incomplete, and restores nothing",
  { timeout: 60_000 },
  async () => {
    const good = await smallBackupFile();
    const bytes = await readFile(good);
    const [header, ...rest] = gunzipSync(bytes).toString("utf8").split("\n").slice(0, -1);
    // A file as the previous version wrote PostgreSQL's (the counts in the header, none at the end), whose rows
    // unzip to more than the header's first chunk (a lead's message of a megabyte), cut off in its rows.
    const previous = JSON.stringify({
      ...JSON.parse(header!),
      ...JSON.parse(rest.at(-1)!),
      version: 1,
      database: "postgresql",
      rowBytes: undefined,
    });
    const rows = rest
      .slice(0, -1)
      .join("\n")
      .replace('"message":"Help"', `"message":"${"x".repeat(1 << 20)}"`);
    const previousVersion = gzipSync(`${previous}\n${rows}\n`);
    const files = await Promise.all([
      withChecksum("cut.pglite.gz", bytes.subarray(0, Math.floor(bytes.length * 0.6))),
      withChecksum("rows-cut.pg.gz", previousVersion.subarray(0, previousVersion.length >> 1)),
    ]);
    const folder = join(root, "after-truncated");
    const answers = await Promise.all(
      files.map((file, at) => runScript("restore", [file], { PGLITE_DATA_DIR: join(folder, `pglite${at}`) })),
    );
    expectRefusal(answers[0]!, /cut\.pglite\.gz is incomplete/);
    expectRefusal(answers[1]!, /rows-cut\.pg\.gz is incomplete/);
    expect(answers[1]!.stderr).toContain("Nothing was restored");
    expect(await readdir(folder).catch(() => [])).toEqual([]);
  },
);

test(
  "a restored backup keeps nothing past its retention period: a lead older than a year is dropped, and the restore says so",
  { timeout: 60_000 },
  async () => {
    const pgliteDataDir = join(root, "restored-expired", "pglite");
    const restored = await runScript("restore", [await smallBackupFile()], { PGLITE_DATA_DIR: pgliteDataDir });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain("Dropped, past their retention period: leads and opt-out requests: 1.");
    expect(await storedEmails({ pgliteDataDir }, ["recent@example.com", "expired@example.com"])).toEqual([
      "recent@example.com",
    ]);
  },
);
