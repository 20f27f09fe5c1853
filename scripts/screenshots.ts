/**
 * `npm run screenshots`: the pictures of the site and the console in the README, taken from the running app. Builds
 * the site, starts the server (an embedded database in memory), adds an operator and a few fictional leads through
 * the lead intake, then has Chromium's headless shell (the browser tests' browser) photograph a landing page on a
 * phone, the home page on a laptop, the console's inbox and a lead's page, into docs/screenshots/.
 */
import { execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { parseEnv } from "../app/config/env.server.ts";
import { saveOperator } from "../app/server/console/index.server.ts";
import { startServer } from "../app/server/start-server.server.ts";
import { assertChromiumInstalled, chromiumArgs, chromiumHeadlessShell } from "../tooling/chromium.ts";
import { compressPng } from "./lib/compress-png.ts";

const OUT_DIR = "docs/screenshots";
const OPERATOR = { email: "owner@plumbline.example", password: "correct horse battery staple" };

/** Fictional visitors on 555-01xx numbers, newest last. */
const LEADS = [
  ["Maria", "Gonzalez", "Water Heater Services", "No hot water since this morning; the tank is 12 years old."],
  ["James", "Okafor", "Drain Services", "Kitchen sink drains slowly and gurgles."],
  ["Priya", "Raman", "Toilet Services", "The upstairs toilet keeps running after every flush."],
  ["Tom", "Becker", "Sewer Services", "Sewage smell in the basement near the floor drain."],
  ["Dana", "Whitfield", "Emergency Plumbing", "Burst pipe under the kitchen sink, water everywhere."],
] as const;

async function seed(services: Awaited<ReturnType<typeof startServer>>["services"]) {
  await saveOperator(services.db, OPERATOR.email, OPERATOR.password);
  for (const [index, [firstName, lastName, service, message]] of LEADS.entries()) {
    const outcome = await services.leads.submit({
      fields: {
        firstName,
        lastName,
        email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@example.com`,
        phone: `(555) 01${index}-${String(2288 + index * 1111).slice(0, 4)}`,
        service,
        message,
      },
      client: `192.0.2.${index + 1}`,
      channel: "form",
      kind: "contact",
      globalPrivacyControl: false,
      referer: null,
      idempotencyKey: null,
    });
    if (outcome.outcome !== "stored") throw new Error(`the lead of ${firstName} was not stored: ${outcome.outcome}`);
  }
}

async function shoot(page: Page, name: string) {
  const path = join(OUT_DIR, `${name}.png`);
  const png = await page.screenshot({ animations: "disabled" });
  compressPng(png, path);
  console.log(`${path}: ${(statSync(path).size / 1024).toFixed(0)} KB`);
}

async function main() {
  assertChromiumInstalled(chromiumHeadlessShell);
  execSync("npx react-router build", { stdio: "inherit" });
  mkdirSync(OUT_DIR, { recursive: true });
  const outbox = mkdtempSync(join(tmpdir(), "plumbline-screenshots-"));
  const server = await startServer(
    parseEnv({
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      PGLITE_DATA_DIR: "memory://",
      DATABASE_URL: "",
      OUTBOX_DIR: outbox,
      DIGEST: "off",
      BACKUP_SCHEDULE: "off",
      LOG_LEVEL: "warn",
    }),
  );
  const browser = await chromium.launch({
    executablePath: chromiumHeadlessShell.path,
    // Nothing leaves this machine: the location line's lookups fail and the pages show their fallback.
    args: [...chromiumArgs, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
  });
  try {
    await seed(server.services);

    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, reducedMotion: "reduce" });
    await phone.goto(`${server.url}/drain-services`);
    await shoot(phone, "site-phone");

    const laptop = await browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" });
    await laptop.goto(`${server.url}/`);
    await shoot(laptop, "site-laptop");

    await laptop.goto(`${server.url}/admin/login`);
    await laptop.getByLabel("Email").fill(OPERATOR.email);
    await laptop.getByLabel("Password").fill(OPERATOR.password);
    await laptop.getByRole("button", { name: "Sign in" }).click();
    await laptop.getByRole("button", { name: "Sign out" }).waitFor();
    await shoot(laptop, "console-inbox");

    await laptop.getByRole("link", { name: "Dana Whitfield" }).first().click();
    await laptop.getByRole("heading", { name: /Dana Whitfield/ }).waitFor();
    await shoot(laptop, "console-lead");
  } finally {
    await browser.close();
    await server.close();
    rmSync(outbox, { recursive: true, force: true });
  }
}

await main();
