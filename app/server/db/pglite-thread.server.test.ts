import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { projectPath } from "../project-path.server.ts";
import { openPgliteThread } from "./pglite-thread.server.ts";

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

/** Processes whose parent is this one and that run the database's module. */
async function databaseChildren(): Promise<number[]> {
  const children: number[] = [];
  for (const pid of (await readdir("/proc")).filter((name) => /^\d+$/.test(name))) {
    const [stat, cmdline] = await Promise.all([
      readFile(`/proc/${pid}/stat`, "utf8").catch(() => ""),
      readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => ""),
    ]);
    // The parent's pid is the fourth field, after the command name in parentheses.
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (parent === process.pid && cmdline.includes("pglite-worker")) children.push(Number(pid));
  }
  return children;
}

test("a new folder whose migration fails names the statement that failed, leaves no process behind, and opens once the migration is mended", async () => {
  const dataDir = join(root, "data");
  const broken = await migrations("broken", "CREATE TABLE lead (id integer PRIMARY KEY;");
  await expect(openPgliteThread(dataDir, broken)).rejects.toThrow(/Failed query: CREATE TABLE lead/);
  expect(await databaseChildren()).toEqual([]);

  const mended = await migrations("mended", "CREATE TABLE lead (id integer PRIMARY KEY);");
  const database = await openPgliteThread(dataDir, mended);
  try {
    expect(
      await database.request({
        kind: "query",
        text: "SELECT count(*)::int AS n FROM lead",
        params: [],
        rowMode: "object",
      }),
    ).toEqual([{ n: 0 }]);
  } finally {
    await database.close();
  }
});

test("a new folder is created and migrated with the project's migrations, and nothing of its creation keeps running", async () => {
  const dataDir = join(root, "new");
  const database = await openPgliteThread(dataDir, projectPath("drizzle"));
  try {
    expect(await databaseChildren()).toEqual([]);
    const leads = await database.request({
      kind: "query",
      text: "SELECT count(*)::int AS n FROM contact_requests",
      params: [],
      rowMode: "object",
    });
    expect(leads).toEqual([{ n: 0 }]);
  } finally {
    await database.close();
  }
});
