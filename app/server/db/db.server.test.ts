import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { sql } from "drizzle-orm";
import { afterAll, expect, test, vi } from "vitest";
import { contactRequests } from "../leads/schema.server.ts";
import { openDatabase } from "./db.server.ts";
import { makeMigratedFolder } from "../../../tooling/migrated-database.ts";
import { contactRequestRow } from "../../../tooling/stored-rows.ts";

const root = await mkdtemp(join(tmpdir(), "plumbline-db-"));
// Each test creates embedded databases, which takes seconds each on a busy machine.
vi.setConfig({ testTimeout: 90_000 });
afterAll(() => rm(root, { recursive: true, force: true }));

const contact = contactRequestRow("00000000-0000-4000-8000-000000000001");

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
  // The folder exists, so that the other process only opens it.
  await makeMigratedFolder(dataDir);
  // Another process opens the folder and keeps it open.
  const holder = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "-e",
      `const { openDatabase } = await import("./app/server/db/db.server.ts");
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

test("a lead committed before close() is there after the folder is opened again", async () => {
  const dataDir = join(root, "reopen");
  const first = await openDatabase({ pgliteDataDir: dataDir });
  await first.db.insert(contactRequests).values(contact);
  await first.close();
  const second = await openDatabase({ pgliteDataDir: dataDir });
  try {
    expect(
      await second.db.select({ id: contactRequests.id, email: contactRequests.email }).from(contactRequests),
    ).toEqual([{ id: contact.id, email: contact.email }]);
  } finally {
    await second.close();
  }
});

test("many concurrent statements each get their own rows", async () => {
  const database = await openDatabase({ pgliteDataDir: "memory://" });
  try {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        n % 2
          ? database.run<{ n: number }>("echo", "SELECT $1::int AS n", [n])
          : database.db.select({ n: sql<number>`${n}::int` }).from(sql`(SELECT 1) AS one`),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 200 }, (_, n) => [{ n }]));
  } finally {
    await database.close();
  }
});

test("a statement sent first (a caller on the line) is answered before the statements already waiting", async () => {
  const database = await openDatabase({ pgliteDataDir: "memory://" });
  try {
    const answered: string[] = [];
    const waiting = Array.from({ length: 20 }, (_, n) =>
      database.run("slow", "SELECT pg_sleep(0.01)", []).then(() => answered.push(`waiting ${n}`)),
    );
    const first = database.runFirst("call_step", "SELECT 1 AS one", []).then(() => answered.push("call"));
    await Promise.all([...waiting, first]);
    // At most the statements already handed to the database run before it.
    expect(answered.indexOf("call")).toBeLessThan(3);
  } finally {
    await database.close();
  }
});

test("a statement the database rejects fails with PostgreSQL's error, and the next one works", async () => {
  const database = await openDatabase({ pgliteDataDir: "memory://" });
  try {
    await expect(database.run("broken", "SELECT * FROM no_such_table", [])).rejects.toMatchObject({
      message: expect.stringMatching(/no_such_table/),
      code: "42P01",
    });
    expect(await database.run("one", "SELECT 1 AS one", [])).toEqual([{ one: 1 }]);
  } finally {
    await database.close();
  }
});

// Two opens of PGlite, each in a new thread: seconds each on a loaded machine.
test(
  "when the database's thread dies, waiting and later statements fail instead of hanging",
  { timeout: 120_000 },
  async () => {
    const database = await openDatabase({ pgliteDataDir: "memory://" });
    // The thread is killed right after it is sent this statement, as a crash inside PGlite would end it.
    const postMessage = Worker.prototype.postMessage;
    const spy = vi.spyOn(Worker.prototype, "postMessage").mockImplementation(function (
      this: Worker,
      message,
      transfer,
    ) {
      postMessage.call(this, message, transfer);
      if ((message as { name?: string }).name === "doomed") void this.terminate();
    });
    try {
      await expect(database.run("doomed", "SELECT pg_sleep(1)", [])).rejects.toThrow(/embedded database stopped/);
      await expect(database.run("one", "SELECT 1 AS one", [])).rejects.toThrow(/embedded database stopped/);
      await expect(database.db.select().from(contactRequests)).rejects.toMatchObject({
        cause: { message: expect.stringMatching(/embedded database stopped/) },
      });
    } finally {
      spy.mockRestore();
      await database.close();
    }
    // The next open starts a new thread.
    const next = await openDatabase({ pgliteDataDir: "memory://" });
    expect(await next.run("one", "SELECT 1 AS one", [])).toEqual([{ one: 1 }]);
    await next.close();
  },
);
