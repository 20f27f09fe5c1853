import { spawn, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { npmScriptCommand } from "../../tooling/server-process.ts";
import { e2ePort } from "../e2e-server.ts";
import { startWebhookReceiver } from "../webhook-receiver.ts";
import { expectNoAxeViolations } from "./helpers.ts";

/**
 * First run: a fresh server, with no operator, offers "Create the first operator" with the set-up code it printed
 * in its log, and nothing else; then the console works as usual. Its own server: the shared one has operators.
 */

const PASSWORD = "correct horse battery staple";
const dataDir = `test-results/pglite-first-run-${e2ePort}`;
let server: ChildProcess;
let serverUrl: string;
let log = "";

test.beforeAll(async () => {
  test.setTimeout(90_000);
  await rm(dataDir, { recursive: true, force: true });
  const serve = npmScriptCommand("serve");
  server = spawn(process.execPath, serve.args, {
    env: {
      ...process.env,
      ...serve.env,
      PORT: "0",
      HOST: "127.0.0.1",
      PGLITE_DATA_DIR: dataDir,
      DATABASE_URL: "",
      OUTBOX_DIR: "test-results/outbox-first-run",
      DIGEST: "off",
      BACKUP_SCHEDULE: "off",
      // The webhook receiver listens on this machine.
      WEBHOOK_ALLOW_PRIVATE: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  serverUrl = await new Promise<string>((resolve, reject) => {
    server.stdout!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const serving = /Plumbline is serving (http:\/\/[^\s"]+)/.exec(log);
      if (serving) resolve(serving[1]!);
    });
    server.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    server.on("exit", (code) => reject(new Error(`the server stopped (${code}):\n${log}`)));
  });
});

test.afterAll(async () => {
  // The server writes its data folder until it has stopped.
  if (server && server.exitCode === null) {
    const stopped = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await stopped;
  }
  await rm(dataDir, { recursive: true, force: true });
});

test("the first operator is made with the code from the log; the page is gone after, and the console works", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const code = /set-up code ([A-Z0-9-]{19})/.exec(log)?.[1];
  expect(code, "the set-up code in the server's log").toBeDefined();

  await page.goto(`${serverUrl}/admin`);
  await expect(page).toHaveURL(/\/admin\/setup$/);
  await expect(page.getByRole("heading", { level: 1, name: "Create the first operator" })).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
  }
  await page.getByLabel("Email").fill("owner@example.com");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Set-up code").fill("AAAA-BBBB-CCCC-DDDD");
  await page.getByRole("button", { name: "Create the first operator" }).click();
  await expect(page.getByText("That set-up code is not right")).toBeVisible();
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Set-up code").fill(code!.toLowerCase());
  await page.getByRole("button", { name: "Create the first operator" }).click();

  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByLabel("Email").fill("owner@example.com");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  expect((await page.request.get(`${serverUrl}/admin/setup`)).status()).toBe(404);

  // Integrations: an endpoint, a lead, its delivery listed.
  const receiver = await startWebhookReceiver();
  try {
    await page.goto(`${serverUrl}/admin/integrations`);
    await page.getByLabel("URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    receiver.secret = (await page.getByRole("status").locator("code").textContent()) ?? "";
    const lead = await page.request.post(`${serverUrl}/functions/v1/send-contact-email`, {
      headers: { Origin: serverUrl },
      data: {
        firstName: "Maria",
        lastName: "FirstRun",
        email: "maria@example.com",
        phone: "(555) 019-9124",
        service: "Leak",
        message: "Help",
      },
    });
    expect(lead.ok()).toBe(true);
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(receiver.unverified).toBe(0);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole("row").filter({ hasText: "lead.created" }).filter({ hasText: "Delivered" }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
  } finally {
    await receiver.stop();
  }
});
