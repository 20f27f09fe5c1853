import { spawn } from "node:child_process";
import { expect, type Locator, type Page } from "@playwright/test";
import { commandSocketPath, sendCommand } from "../../app/server/cli/command-socket.server.ts";
import { e2ePgliteDir } from "../e2e-server.ts";

/** What `npm run operator -- …` printed and how it ended, run against the test server's database. */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run operator` (or `npm run leads`) the way an operator would, while the test server runs. */
export function runCli(
  tool: "operator" | "leads" | "backup",
  args: string[],
  stdin = "",
  /** Settings for another server than the test server (its own PGLITE_DATA_DIR, say). */
  settings: NodeJS.ProcessEnv = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", `scripts/${tool}.ts`, ...args], {
      env: { ...process.env, PGLITE_DATA_DIR: e2ePgliteDir, DATABASE_URL: "", ...settings },
      stdio: ["pipe", "pipe", "pipe"],
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

/**
 * Creates an operator (or resets its password) as `npm run operator -- add` does, through the test server's command
 * socket, without starting the command line's own process each time (console-commands.test.ts tests that).
 */
export async function createOperator(email: string, password: string): Promise<void> {
  let errors = "";
  const code = await sendCommand(
    commandSocketPath(e2ePgliteDir),
    { tool: "operator", args: ["add", email], password },
    { out: () => undefined, err: (text) => (errors += text) },
  );
  expect(code, errors).toBe(0);
}

/** Signs in through the login form and waits until the console shows. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  if (!new URL(page.url(), "http://x").pathname.startsWith("/admin/login")) await page.goto("/admin/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

/** A fresh operator email per test, so tests running in parallel never share an account. */
export function uniqueOperatorEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@operator.example`;
}

/** The fields a console form sends (its one-time key among them), read from the page before it is sent. */
export function formFields(form: Locator): Promise<[string, string][]> {
  return form.evaluate((element) =>
    [...new FormData(element as HTMLFormElement).entries()].map(([name, value]): [string, string] => [
      name,
      String(value),
    ]),
  );
}

/**
 * The same form sent again after it was done, as a reload of its answer or the back button sends it: the answer is
 * where the first sending led (303), and the page there says what was done once.
 */
export async function sendAgain(page: Page, action: string, fields: [string, string][]): Promise<string> {
  const origin = new URL(page.url()).origin;
  const response = await page.request.post(`${origin}${action}`, {
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    data: new URLSearchParams(fields).toString(),
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  return response.headers()["location"]!;
}
