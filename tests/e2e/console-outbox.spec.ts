import { spawn, type ChildProcess } from "node:child_process";
import { createECDH, randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { startSmtpPeer, type SmtpPeer } from "../../tooling/local-services.ts";
import { makeMigratedFolder } from "../../tooling/migrated-database.ts";
import { npmScriptCommand } from "../../tooling/server-process.ts";
import { runCli, signIn, uniqueOperatorEmail } from "./console.ts";
import { e2ePort } from "../e2e-server.ts";
import { expectFitsTheScreen, expectNoAxeViolations } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";

/**
 * "Retry now" needs deliveries that fail: this file starts its own server, with SMTP_URL pointing at a peer that
 * is down, and retries far apart (10 minutes), so that only "Retry now" can send anything within the test. Its
 * tests share that server, so they run one after the other.
 */
test.describe.configure({ mode: "serial" });

const PASSWORD = "correct horse battery staple";
const dataDir = `test-results/pglite-outbox-${e2ePort}`;
let peer: SmtpPeer;
let server: ChildProcess;
let serverUrl: string;

test.beforeAll(async () => {
  // Like the Playwright web server: a cold start (build import, database open) can take a while on a busy machine.
  test.setTimeout(90_000);
  peer = await startSmtpPeer();
  await peer.goDown();
  await rm(dataDir, { recursive: true, force: true });
  await makeMigratedFolder(dataDir);
  const serve = npmScriptCommand("serve");
  server = spawn(process.execPath, serve.args, {
    env: {
      ...process.env,
      ...serve.env,
      PORT: "0",
      HOST: "127.0.0.1",
      PGLITE_DATA_DIR: dataDir,
      DATABASE_URL: "",
      SMTP_URL: peer.url,
      OUTBOX_POLL_MS: "600000",
      OUTBOX_RETRY_BASE_MS: "600000",
      OUTBOX_RETRY_MAX_MS: "600000",
      // On a Monday the weekly digest would be one more unsent email than this test lists.
      DIGEST: "off",
      BACKUP_SCHEDULE: "off",
      // The push test's device has its push service on this machine.
      PUSH_ALLOW_PRIVATE: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  serverUrl = await new Promise<string>((resolve, reject) => {
    let output = "";
    server.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const serving = /Plumbline is serving (http:\/\/[^\s"]+)/.exec(output);
      if (serving) resolve(serving[1]!);
    });
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.on("exit", (code) => reject(new Error(`the server stopped (${code}):\n${output}`)));
  });
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const stopped = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await stopped;
  }
  await peer?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

test("Retry now sends an email stuck behind a failing mail server once the server is back", async ({ page }) => {
  const operator = uniqueOperatorEmail("outbox");
  const added = await runCli("operator", ["add", operator], `${PASSWORD}\n`, { PGLITE_DATA_DIR: dataDir });
  expect(added.code, added.stderr).toBe(0);

  const marker = uniqueMarker();
  const posted = await page.request.post(`${serverUrl}/functions/v1/send-contact-email`, {
    headers: { Origin: serverUrl },
    data: {
      firstName: "Maria",
      lastName: marker,
      email: `${marker}@example.com`,
      phone: "(555) 019-9123",
      service: "Leak",
      message: "Help",
    },
  });
  expect(posted.ok()).toBe(true);

  await page.goto(`${serverUrl}/admin/outbox`);
  await signIn(page, operator, PASSWORD);
  const table = page.getByRole("table", { name: "Unsent emails, oldest first" });
  const row = table.getByRole("row").filter({ hasText: marker }).first();
  // The first attempt failed: the mail server refused the connection.
  await expect(async () => {
    await page.reload();
    await expect(row.getByRole("cell").nth(2)).toHaveText("1");
    await expect(row.getByRole("cell").nth(4)).toContainText("ECONNREFUSED");
  }).toPass({ timeout: 15_000 });
  const rowsForLead = await table.getByRole("row").filter({ hasText: marker }).count();
  // The outbox with rows in it, which the test server's (always sent) outbox never shows.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
  }
  const nextAttempt = await row.getByRole("cell").nth(3).textContent();

  await peer.comeBack();
  await row.getByRole("button", { name: /^Retry now/ }).click();
  await expect(async () => {
    await page.reload();
    await expect(table.getByRole("row").filter({ hasText: marker })).toHaveCount(rowsForLead - 1);
  }).toPass({ timeout: 15_000 });
  expect(peer.received.some((mail) => mail.text.includes(marker) || mail.subject.includes(marker))).toBe(true);
  // Without "Retry now" it would have waited for the next attempt, ten minutes on.
  expect(nextAttempt).toMatch(/E[SD]T$/);
});

test("a phone alert its push service did not take is listed with its error, and Retry now tries it again", async ({
  page,
}) => {
  const operator = uniqueOperatorEmail("outbox-push");
  const added = await runCli("operator", ["add", operator], `${PASSWORD}\n`, { PGLITE_DATA_DIR: dataDir });
  expect(added.code, added.stderr).toBe(0);
  await page.goto(`${serverUrl}/admin/outbox`);
  await signIn(page, operator, PASSWORD);
  await expect(page.getByText("Every alert and other message has been sent.")).toBeVisible();

  // A device whose push service refuses connections, as a browser's PushManager describes it.
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const saved = await page.request.post(`${serverUrl}/admin/alerts/devices`, {
    headers: { Origin: serverUrl },
    data: {
      endpoint: `https://127.0.0.1:9/push/${randomBytes(8).toString("hex")}`,
      keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
      deviceLabel: "Chrome on Android",
    },
  });
  expect(saved.status()).toBe(204);
  const posted = await page.request.post(`${serverUrl}/functions/v1/send-contact-email`, {
    headers: { Origin: serverUrl },
    data: {
      firstName: "Maria",
      lastName: uniqueMarker(),
      email: "maria@example.com",
      phone: "(555) 019-9124",
      service: "Leak",
      message: "Help",
    },
  });
  expect(posted.ok(), await posted.text()).toBe(true);

  const table = page.getByRole("table", {
    name: "Unsent alerts and other messages, oldest first",
  });
  const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "New lead push" }) });
  await expect(async () => {
    await page.reload();
    await expect(row.getByRole("cell").first()).toHaveText("Phone alert");
    await expect(row.getByRole("cell").nth(2)).toHaveText("1");
    await expect(row.getByRole("cell").nth(4)).toHaveText(/ECONNREFUSED/);
  }).toPass({ timeout: 15_000 });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }

  await row.getByRole("button", { name: /^Retry now: New lead push/ }).click();
  // Tried again at once, not ten minutes on: it failed a second time.
  await expect(async () => {
    await page.reload();
    await expect(row.getByRole("cell").nth(2)).toHaveText("2");
  }).toPass({ timeout: 15_000 });
});
