import { spawn, type ChildProcess } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { commandSocketPath, sendCommand } from "../../app/server/cli/command-socket.server.ts";
import { npmScriptCommand } from "../../tooling/server-process.ts";
import { e2ePort } from "../e2e-server.ts";
import { runCli, signIn } from "./console.ts";
import { expectFitsTheScreen, expectNoAxeViolations } from "./helpers.ts";

/**
 * A new install's inbox: "Getting started" with nothing done (the shipped name and number, no partner, no Twilio,
 * no backup downloaded); a partner with a fee and a downloaded backup tick their steps. Its own server, since the
 * shared one's inbox has leads.
 */

const PASSWORD = "correct horse battery staple";
const OPERATOR = "owner@start.example";
const dataDir = `test-results/pglite-getting-started-${e2ePort}`;
const backupDir = `test-results/backups-getting-started-${e2ePort}`;
let server: ChildProcess;
let serverUrl: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  await Promise.all([dataDir, backupDir].map((folder) => rm(folder, { recursive: true, force: true })));
  const serve = npmScriptCommand("serve");
  server = spawn(process.execPath, serve.args, {
    env: {
      ...process.env,
      ...serve.env,
      PORT: "0",
      HOST: "127.0.0.1",
      PGLITE_DATA_DIR: dataDir,
      DATABASE_URL: "",
      OUTBOX_DIR: "test-results/outbox-getting-started",
      DIGEST: "off",
      BACKUP_SCHEDULE: "off",
      BACKUP_DIR: backupDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  serverUrl = await new Promise<string>((resolve, reject) => {
    server.stdout!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const serving = /Plumbline is serving (http:\/\/[^\s"]+)/.exec(log);
      if (serving) resolve(serving[1]!);
    });
    server.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    server.on("exit", (code) => reject(new Error(`the server stopped (${code}):\n${log}`)));
  });
  let errors = "";
  const added = await sendCommand(
    commandSocketPath(dataDir),
    { tool: "operator", args: ["add", OPERATOR], password: PASSWORD },
    { out: () => undefined, err: (text) => (errors += text) },
  );
  expect(added, errors).toBe(0);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const stopped = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await stopped;
  }
  await Promise.all([dataDir, backupDir].map((folder) => rm(folder, { recursive: true, force: true })));
});

const STEPS = ["Company name and phone number", "First partner and fees", "Twilio", "Backups copied off the machine"];

/** Each step's state, as the list says it in words. */
async function stepStates(page: Page): Promise<string[]> {
  const steps = page.getByRole("region", { name: "Getting started" }).getByRole("listitem");
  await expect(steps).toHaveCount(STEPS.length);
  return steps.evaluateAll((items) => items.map((item) => item.querySelector("p")?.textContent ?? ""));
}

test("a new install's inbox lists what to do; a partner with a fee and a downloaded backup tick their steps", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.goto(`${serverUrl}/admin/login`);
  await signIn(page, OPERATOR, PASSWORD);
  await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  const checklist = page.getByRole("region", { name: "Getting started" });
  await expect(checklist).toContainText("0 of 4 done");
  expect(await stepStates(page)).toEqual(STEPS.map((step) => `${step}: To do`));
  await expect(checklist.getByRole("link", { name: "Partners" })).toHaveAttribute("href", "/admin/partners");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }

  // Without JavaScript the list is the same page.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  try {
    await noScript.addCookies(await page.context().cookies());
    const plain = await noScript.newPage();
    await plain.goto(`${serverUrl}/admin`);
    expect(await stepStates(plain)).toEqual(STEPS.map((step) => `${step}: To do`));
  } finally {
    await noScript.close();
  }

  // The first partner, with a fee per referral.
  await checklist.getByRole("link", { name: "Partners" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Partners" })).toBeVisible();
  await page.getByLabel("Name").fill("Pat");
  await page.getByLabel("Business").fill("Pat's Pipes");
  await page.getByLabel("Phone").fill("555-010-7788");
  await page.getByLabel("Email").fill("pat@partner.example");
  await page.getByRole("checkbox", { name: "Drain Services" }).check();
  await page.getByLabel("ZIP codes").fill("10001");
  await page.getByLabel("Fee per referral", { exact: true }).fill("55");
  await page.getByRole("button", { name: "Save partner" }).click();
  await expect(page.getByRole("status").getByText("Partner Pat added.")).toBeVisible();
  await page.goto(`${serverUrl}/admin`);
  expect(await stepStates(page)).toEqual([
    "Company name and phone number: To do",
    "First partner and fees: Done",
    "Twilio: To do",
    "Backups copied off the machine: To do",
  ]);

  // Twilio's step leads to the Calls page, which names every setting call tracking needs.
  await checklist.getByRole("link", { name: "Calls" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Calls" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(
    "Call tracking is off: set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and CALL_FORWARD_TO (the number calls ring)",
  );
  await page.goto(`${serverUrl}/admin`);

  // A backup, downloaded from the Outbox page.
  const backup = await runCli("backup", [], "", { PGLITE_DATA_DIR: dataDir });
  expect(backup.code, backup.stderr).toBe(0);
  await checklist.getByRole("link", { name: "Backups, on the Outbox page" }).click();
  const backups = page.getByRole("region", { name: "Backups" });
  await expect(backups).toContainText("Yes: restored into a scratch database");
  await expect(backups).toContainText(/Downloaded\s*Not yet/);
  const downloaded = page.waitForEvent("download");
  await backups.getByRole("link", { name: "Download the newest backup" }).click();
  const file = await downloaded;
  expect(file.suggestedFilename()).toMatch(/^plumbline-\d{8}T\d{6}Z\.pglite\.gz$/);
  const bytes = await readFile((await file.path())!);
  expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  await page.goto(`${serverUrl}/admin`);
  expect(await stepStates(page)).toContain("Backups copied off the machine: Done");
  await expect(checklist).toContainText("2 of 4 done");
  await expectNoAxeViolations(page);
});
