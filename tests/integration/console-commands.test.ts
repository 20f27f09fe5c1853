import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { postJson, startPostgres, testEnv, validContact, type TestPostgres } from "../../tooling/local-services.ts";
import { makeMigratedFolder } from "../../tooling/migrated-database.ts";

/** `npm run operator` and `npm run leads` as an operator runs them, in a second terminal, while the site runs. */
function runCli(tool: "operator" | "leads", args: string[], env: Record<string, string>, stdin = "") {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", `scripts/${tool}.ts`, ...args], {
      env: { ...process.env, DATABASE_URL: "", PGLITE_DATA_DIR: "", ...env },
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

const PASSWORD = "a long enough password";

async function signIn(baseUrl: string, email: string, password: string) {
  return fetch(`${baseUrl}/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams({ email, password }).toString(),
    redirect: "manual",
  });
}

const sessionCookieOf = (response: Response) => response.headers.get("set-cookie")!.split(";")[0]!;

/** The same checks on either database: the commands work while the server runs, and act on its data. */
async function commandsWorkWhileServing(running: RunningServer, cliEnv: Record<string, string>) {
  expect((await postJson(running.url, validContact)).status).toBe(200);
  const leads = await runCli("leads", ["list"], cliEnv);
  expect(leads.code, leads.stderr).toBe(0);
  expect(leads.stdout).toContain(validContact.email);
  const exported = await runCli("leads", ["export"], cliEnv);
  expect(exported.code, exported.stderr).toBe(0);
  expect(exported.stdout).toContain(`,${validContact.email},`);

  const added = await runCli("operator", ["add", "Ops@Example.com"], cliEnv, `${PASSWORD}\n`);
  expect(added.code, added.stderr).toBe(0);
  expect(added.stdout).toContain("Operator ops@example.com added");
  expect((await runCli("operator", ["list"], cliEnv)).stdout).toContain("ops@example.com");

  const signedIn = await signIn(running.url, "ops@example.com", PASSWORD);
  expect(signedIn.status).toBe(303);
  const cookie = sessionCookieOf(signedIn);
  expect((await fetch(`${running.url}/admin`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(200);
  // The console's download and the command line's export are one format.
  const download = await fetch(`${running.url}/admin/export/leads.csv`, { headers: { Cookie: cookie } });
  expect(await download.text()).toBe(exported.stdout);

  // A new password ends the sessions started with the old one.
  const reset = await runCli("operator", ["add", "ops@example.com"], cliEnv, "another long password\n");
  expect(reset.code, reset.stderr).toBe(0);
  expect(reset.stdout).toContain("sessions have ended");
  expect((await fetch(`${running.url}/admin`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(303);

  const again = sessionCookieOf(await signIn(running.url, "ops@example.com", "another long password"));
  const removed = await runCli("operator", ["remove", "ops@example.com"], cliEnv);
  expect(removed.code, removed.stderr).toBe(0);
  const afterRemoval = await fetch(`${running.url}/admin`, { headers: { Cookie: again }, redirect: "manual" });
  expect(afterRemoval.status).toBe(303);
  expect(afterRemoval.headers.get("location")).toBe("/admin/login?next=%2Fadmin");
  expect((await runCli("operator", ["remove", "ops@example.com"], cliEnv)).code).toBe(1);
}

describe("operator and leads commands while the server runs on the embedded database", () => {
  let folder: string;
  let running: RunningServer;
  let pgliteDir: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "plumbline-cli-"));
    pgliteDir = join(folder, "pglite");
    // A socket file left behind by a crashed server is replaced.
    await writeFile(`${pgliteDir}.sock`, "stale");
    running = await startServer(testEnv({ PGLITE_DATA_DIR: pgliteDir }));
  });
  afterAll(async () => {
    await running.close();
    await rm(folder, { recursive: true, force: true });
  });

  // Seven commands, each a Node process of its own that loads TypeScript: on a busy machine that is over 30 s.
  test(
    "reach the database through the server, and open it themselves once it has stopped",
    { timeout: 90_000 },
    async () => {
      await commandsWorkWhileServing(running, { PGLITE_DATA_DIR: pgliteDir });
      await running.close();
      expect(existsSync(`${pgliteDir}.sock`)).toBe(false);
      const leads = await runCli("leads", ["list"], { PGLITE_DATA_DIR: pgliteDir });
      expect(leads.code, leads.stderr).toBe(0);
      expect(leads.stdout).toContain(validContact.email);
    },
  );
});

test("the operator's commands refuse a short password, a bad address and an unknown command on the operator's terminal, before any database is opened", async () => {
  const folder = await mkdtemp(join(tmpdir(), "plumbline-refused-"));
  try {
    const cliEnv = { PGLITE_DATA_DIR: join(folder, "pglite") };
    const short = await runCli("operator", ["add", "ops@example.com"], cliEnv, "eleven char\n");
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("at least 12 characters");
    const badEmail = await runCli("operator", ["add", "not-an-email"], cliEnv, `${PASSWORD}\n`);
    expect(badEmail.code).toBe(2);
    expect(badEmail.stderr).toContain("Not a valid email address");
    const typo = await runCli("leads", ["exprot"], cliEnv);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("Usage: npm run leads");
    const badDays = await runCli("leads", ["purge", "a year"], cliEnv);
    expect(badDays.code).toBe(2);
    expect(badDays.stderr).toContain("Usage: npm run leads");
    // None made the embedded database it would otherwise have opened.
    expect(existsSync(cliEnv.PGLITE_DATA_DIR)).toBe(false);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test("a command whose reader stops early (npm run leads -- export | head) exits quietly", async () => {
  const folder = await mkdtemp(join(tmpdir(), "plumbline-pipe-"));
  try {
    const pgliteDir = join(folder, "pglite");
    await makeMigratedFolder(pgliteDir);
    // The reader is gone before the first line is written, as `head` is once it has its lines.
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/leads.ts", "export"], {
      env: { ...process.env, DATABASE_URL: "", PGLITE_DATA_DIR: pgliteDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

describe("operator and leads commands while the server runs on PostgreSQL", () => {
  let postgres: TestPostgres;
  let databaseUrl: string;
  let running: RunningServer;
  beforeAll(async () => {
    postgres = await startPostgres();
    databaseUrl = await postgres.createDatabase();
    running = await startServer(testEnv({ DATABASE_URL: databaseUrl }));
  });
  afterAll(async () => {
    await running?.close();
    await postgres?.stop();
  });

  test("use PostgreSQL directly", { timeout: 90_000 }, async () => {
    await commandsWorkWhileServing(running, { DATABASE_URL: databaseUrl });
  });
});
