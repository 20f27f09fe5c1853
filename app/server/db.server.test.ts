import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { openDatabase } from "./db.server.ts";

const root = await mkdtemp(join(tmpdir(), "plumbline-db-"));
afterAll(() => rm(root, { recursive: true, force: true }));

test("an embedded database folder is opened by one owner at a time", async () => {
  const dataDir = join(root, "pglite");
  const first = await openDatabase({ pgliteDataDir: dataDir });
  await expect(openDatabase({ pgliteDataDir: dataDir })).rejects.toThrow(/is in use by process \d+.*DATABASE_URL/);
  await first.close();
  const second = await openDatabase({ pgliteDataDir: dataDir });
  await second.close();
});

test("a lock left by a process that has died is taken over", async () => {
  const dataDir = join(root, "stale");
  // No process has this pid: Linux pids stay below 2^22.
  await writeFile(`${dataDir}.lock`, "99999999");
  const database = await openDatabase({ pgliteDataDir: dataDir });
  await database.close();
});
