import { spawn } from "node:child_process";
import { request } from "node:http";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServer } from "~/server/start-server.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { postJson, startSmtpPeer, testEnv, validContact, waitUntil } from "../../tooling/local-services.ts";
import { npmScriptCommand } from "../../tooling/server-process.ts";
import { makeMigratedFolder } from "../../tooling/migrated-database.ts";

const PROJECT_DIR = fileURLToPath(new URL("../../", import.meta.url));

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "plumbline-shutdown-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** `npm run serve`'s process, on the embedded database in `dataDir`. */
async function startServerProcess(settings: Record<string, string>) {
  const serve = npmScriptCommand("serve");
  const child = spawn(process.execPath, serve.args, {
    cwd: PROJECT_DIR,
    env: {
      PATH: process.env.PATH,
      ...serve.env,
      HOST: "127.0.0.1",
      PORT: "0",
      OUTBOX_POLL_MS: "100",
      LEADS_EMAIL_TO: "leads@operator.example",
      // On a Monday the weekly digest would be one more email than this test counts.
      DIGEST: "off",
      ...settings,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  await waitUntil(() => /serving (http:[^\s"]+)/.test(output) || child.exitCode !== null, 90_000);
  const url = /serving (http:[^\s"]+)/.exec(output)?.[1];
  if (!url) throw new Error(`The server did not start:\n${output}`);
  return { child, url, exited, output: () => output };
}

/** A lead POST whose body arrives in two parts; resolves with the status once `finish()` sends the rest. */
function slowPost(url: string) {
  const body = JSON.stringify({ ...validContact, service: "Sent during shutdown" });
  const pending = request(`${url}/functions/v1/send-contact-email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
  });
  const status = new Promise<number>((resolve, reject) => {
    pending.on("response", (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    pending.on("error", reject);
  });
  pending.write(body.slice(0, 20));
  return { status, finish: () => pending.end(body.slice(20)) };
}

test("SIGTERM twice during a request and a hung email send: the request completes, the database is closed, the process exits 0 within seconds; each email goes out once after a restart", async () => {
  const dataDir = join(root, "pglite");
  const hungPeer = await startSmtpPeer({ holdRecipients: true });
  await makeMigratedFolder(dataDir);
  const server = await startServerProcess({ PGLITE_DATA_DIR: dataDir, SMTP_URL: hungPeer.url });
  try {
    expect((await postJson(server.url, validContact)).status).toBe(200);
    await waitUntil(() => hungPeer.recipientsOffered.length === 1);
    const inFlight = slowPost(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The request begun before the signal is finished and answered.
    inFlight.finish();
    expect(await inFlight.status).toBe(200);
    server.child.kill("SIGTERM");
    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(server.output()).toContain("database closed");
    // The lock goes last, after the database has closed.
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  } finally {
    server.child.kill("SIGKILL");
    await hungPeer.stop();
  }

  const peer = await startSmtpPeer();
  const restarted = await startServer(testEnv({ PGLITE_DATA_DIR: dataDir, SMTP_URL: peer.url }));
  try {
    await waitUntil(() => peer.received.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(new Set(peer.received.map((mail) => mail.messageId)).size).toBe(2);
    expect(peer.received).toHaveLength(2);
    const rows = await restarted.services.db.select().from(emailOutbox);
    // Aborted attempts were handed back, not counted.
    for (const row of rows) {
      expect(row).toMatchObject({ attempts: 1, failedAt: null });
      expect(row.sentAt).not.toBeNull();
    }
  } finally {
    await restarted.close();
    await peer.stop();
  }
}, 180_000);
