import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test, vi } from "vitest";
import { openDatabase } from "./db.server.ts";

const root = await mkdtemp(join(tmpdir(), "plumbline-db-"));
// Each test creates embedded databases, which takes seconds each on a busy machine.
vi.setConfig({ testTimeout: 90_000 });
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

test("a lock naming this very process (its pid reused, as pid 1 in a container after a crash) is taken over", async () => {
  for (const [name, content] of [
    ["own-pid-old-format", String(process.pid)],
    ["own-pid", `${process.pid} 00000000-boot:12345`],
  ]) {
    const dataDir = join(root, name!);
    await writeFile(`${dataDir}.lock`, content!);
    const database = await openDatabase({ pgliteDataDir: dataDir });
    await database.close();
  }
});

test("a lock naming a live process is kept while that process holds it, and taken over once its pid means another process", async () => {
  const dataDir = join(root, "held");
  // Another process opens the folder and keeps it open.
  const holder = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "-e",
      `const { openDatabase } = await import("./app/server/db.server.ts");
       await openDatabase({ pgliteDataDir: ${JSON.stringify(dataDir)} });
       console.log("open");
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("open") && resolve());
      holder.once("exit", () => reject(new Error("the holder exited")));
    });
    await expect(openDatabase({ pgliteDataDir: dataDir })).rejects.toThrow(`is in use by process ${holder.pid}`);
    // The same live pid, but the lock was written by a process that started at another time.
    const [pid] = (await readFile(`${dataDir}.lock`, "utf8")).split(" ");
    const reused = join(root, "reused");
    await writeFile(`${reused}.lock`, `${pid} 00000000-boot:1`);
    const database = await openDatabase({ pgliteDataDir: reused });
    await database.close();
  } finally {
    holder.kill("SIGKILL");
  }
});
