import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test, vi } from "vitest";
import { waitUntil } from "../../../tooling/local-services.ts";
import { projectPath } from "../project-path.server.ts";
import type { PgliteConnection } from "./pglite-thread.server.ts";

// The module itself, not the tests' setup's, which starts every new database from a dump: these tests are about
// how a server creates a folder.
const { openPgliteThread } =
  await vi.importActual<typeof import("./pglite-thread.server.ts")>("./pglite-thread.server.ts");

const MIGRATIONS = projectPath("drizzle");
const root = await mkdtemp(join(tmpdir(), "plumbline-pglite-thread-"));
afterAll(() => rm(root, { recursive: true, force: true }));

/** A migrations folder with one migration of the given SQL. */
async function migrations(name: string, sql: string): Promise<string> {
  const folder = join(root, name);
  await mkdir(join(folder, "meta"), { recursive: true });
  const entry = { idx: 0, version: "7", when: 1, tag: "0000_only", breakpoints: true };
  await writeFile(
    join(folder, "meta", "_journal.json"),
    JSON.stringify({ version: "7", dialect: "postgresql", entries: [entry] }),
  );
  await writeFile(join(folder, "0000_only.sql"), sql);
  return folder;
}

/** The processes that run the database's module and whose parent is `parent`. */
async function databaseChildren(parent = process.pid): Promise<number[]> {
  const children: number[] = [];
  for (const pid of (await readdir("/proc")).filter((name) => /^\d+$/.test(name))) {
    const [stat, cmdline] = await Promise.all([
      readFile(`/proc/${pid}/stat`, "utf8").catch(() => ""),
      readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => ""),
    ]);
    // The parent's pid is the fourth field, the second after the command name in parentheses.
    const parentPid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (parentPid === parent && cmdline.includes("pglite-worker")) children.push(Number(pid));
  }
  return children;
}

/** Whether a process is still there: a zombie, dead but not yet reaped, is not. */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return stat !== "" && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
}

const count = (database: PgliteConnection, table: string) =>
  database.request({ kind: "query", text: `SELECT count(*)::int AS n FROM ${table}`, params: [], rowMode: "object" });

test("a new folder whose migration fails names the statement that failed, leaves no process behind, and opens once the migration is mended", async () => {
  const dataDir = join(root, "mended");
  const broken = await migrations("broken-migrations", "CREATE TABLE lead (id integer PRIMARY KEY;");
  await expect(openPgliteThread(dataDir, broken)).rejects.toThrow(/Failed query: CREATE TABLE lead/);
  expect(await databaseChildren()).toEqual([]);

  const mended = await migrations("mended-migrations", "CREATE TABLE lead (id integer PRIMARY KEY);");
  const database = await openPgliteThread(dataDir, mended);
  try {
    expect(await count(database, "lead")).toEqual([{ n: 0 }]);
  } finally {
    await database.close();
  }
});

test("a new folder is created and migrated with the project's migrations, and nothing of its creation keeps running", async () => {
  const database = await openPgliteThread(join(root, "new"), MIGRATIONS);
  try {
    expect(await databaseChildren()).toEqual([]);
    expect(await count(database, "contact_requests")).toEqual([{ n: 0 }]);
  } finally {
    await database.close();
  }
});

test("a server killed while it creates its folder leaves nothing writing to it, and the next start opens the folder", async () => {
  const dataDir = join(root, "killed");
  const server = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "-e",
      `const { openPgliteThread } = await import("./app/server/db/pglite-thread.server.ts");
       await openPgliteThread(${JSON.stringify(dataDir)}, ${JSON.stringify(MIGRATIONS)});`,
    ],
    { stdio: "ignore" },
  );
  let creation: number | undefined;
  try {
    await waitUntil(async () => ([creation] = await databaseChildren(server.pid)).length > 0);
    // Killed halfway: initdb has begun writing the folder.
    await waitUntil(() => existsSync(join(dataDir, "PG_VERSION")));
  } finally {
    server.kill("SIGKILL");
  }
  await waitUntil(async () => !(await isRunning(creation!)), 5_000);

  const database = await openPgliteThread(dataDir, MIGRATIONS);
  try {
    expect(await count(database, "contact_requests")).toEqual([{ n: 0 }]);
  } finally {
    await database.close();
  }
});
