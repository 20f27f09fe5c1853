import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import PostalMime from "postal-mime";
import { freePort } from "../../tooling/local-services.ts";
import { makeMigratedFolder } from "../../tooling/migrated-database.ts";
import { startServerProcess, type ServerProcess } from "../../tooling/server-process.ts";
import { signIn } from "./console.ts";
import { expectFitsTheScreen, expectNoAxeViolations } from "./helpers.ts";

/**
 * The monthly statement, end to end: a partner with entries last month is sent a statement of it when the server
 * starts (statements are due from the 1st at 08:00, and each server issues the due ones at start), its emailed
 * link opens the printable statement, and the console lists it with a CSV that downloads the same every time.
 * Its own server, on a data folder seeded by tests/e2e/seed-last-month.ts: the shared server's clock is now.
 */

const OPERATOR = "owner@operator.example";
const PASSWORD = "correct horse battery staple";
const PARTNER_EMAIL = "lee@park-drains.example";

let folder: string;
let server: ServerProcess;
/** The month the seed's entries are in, "2026-10". */
let period: string;

/** Runs the seed on the data folder the server is about to open, and returns the month it seeded. */
function seedLastMonth(settings: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const seed = spawn(process.execPath, ["--import", "tsx", "tests/e2e/seed-last-month.ts"], {
      env: { PATH: process.env.PATH, ...settings },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    seed.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    seed.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    seed.on("error", reject);
    seed.on("close", (code) =>
      code === 0
        ? resolve((JSON.parse(output) as { period: string }).period)
        : reject(new Error(`the seed failed (${code}):\n${output}`)),
    );
  });
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  folder = await mkdtemp(join(tmpdir(), "plumbline-statements-"));
  const dataDir = join(folder, "pglite");
  await makeMigratedFolder(dataDir);
  period = await seedLastMonth({ PGLITE_DATA_DIR: dataDir });
  const port = await freePort();
  server = await startServerProcess({
    PORT: String(port),
    // The emailed link is the server's own address, so that the test follows it as the partner would.
    SITE_URL: `http://127.0.0.1:${port}`,
    PGLITE_DATA_DIR: dataDir,
    OUTBOX_DIR: join(folder, "outbox"),
  });
});

test.afterAll(async () => {
  // The server writes its data folder until it has stopped.
  await server?.kill("SIGTERM");
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The emails the server has written for an address so far. */
async function emailsTo(address: string) {
  const outbox = join(folder, "outbox");
  const mails = await Promise.all(
    (await readdir(outbox).catch(() => [])).map(async (file) => PostalMime.parse(await readFile(join(outbox, file)))),
  );
  return mails.filter((mail) => (mail.to ?? []).some((to) => "address" in to && to.address === address));
}

/** Each row of the tables in `scope`, as the text of its cells. */
function tableRows(scope: Page | Locator) {
  return scope
    .getByRole("row")
    .evaluateAll((rows) =>
      rows.map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent?.trim() ?? "")),
    );
}

test("last month's statement is emailed to the partner, prints from its link, and downloads from the console", async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  const utcDay = (day: number) => new Date(`${period}-${String(day).padStart(2, "0")}T12:00:00Z`);
  const month = utcDay(1).toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
  const date = (day: number) =>
    utcDay(day).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

  // The partner's email: the month, the amount due and closing balance, and the link to the printable statement
  // (the opening balance is on the statement itself).
  await expect.poll(async () => (await emailsTo(PARTNER_EMAIL)).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const emails = await emailsTo(PARTNER_EMAIL);
  expect(emails).toHaveLength(1);
  const email = emails[0]!;
  expect(email.subject).toBe(`Statement 1 from Plumbline: ${month}`);
  expect(email.text).toContain(
    `Your statement 1 from Plumbline for ${month}: amount due $20.50 (closing balance $20.50).`,
  );
  const link = new RegExp(`^${server.url.replace(/\./g, "\\.")}/statements/\\S+$`, "m").exec(email.text ?? "")?.[0];
  expect(link, email.text).toBeDefined();

  // The operator writes how partners pay on the Partners page; every statement prints it.
  const operatorPage = await browser.newPage();
  await operatorPage.goto(`${server.url}/admin/login`);
  await signIn(operatorPage, OPERATOR, PASSWORD);
  await operatorPage
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: "Partners", exact: true })
    .click();
  await operatorPage
    .getByLabel("How partners pay")
    .fill("Bank transfer to Plumbline LLC, account 1234.\nOr a check to PO Box 9.");
  await operatorPage.getByRole("button", { name: "Save payment instructions" }).click();
  await expect(operatorPage.getByText("Payment instructions saved: statements show them.")).toHaveRole("status");
  await expect(operatorPage.getByLabel("How partners pay")).toHaveValue(
    "Bank transfer to Plumbline LLC, account 1234.\nOr a check to PO Box 9.",
  );
  await operatorPage.close();

  // The printable statement, opened from the link without signing in.
  await page.goto(link!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Plumbline: statement 1");
  // Issued when the server started (today in OPERATOR_TIME_ZONE, New York by default), due STATEMENT_DUE_DAYS
  // (15 by default) later; every amount with the dollar sign.
  const inNewYork = (daysFromNow: number) =>
    new Date(Date.now() + daysFromNow * 86_400_000).toLocaleDateString("en-US", {
      month: "short",
      day: "numeric",
      year: "numeric",
      timeZone: "America/New_York",
    });
  expect(await page.getByRole("term").allTextContents()).toEqual([
    "Statement",
    "Partner",
    "Period",
    "Issued",
    "Due",
    "Currency",
  ]);
  expect(await page.getByRole("definition").allTextContents()).toEqual([
    "1",
    "Lee Park (Park Drains)",
    month,
    inNewYork(0),
    inNewYork(15),
    "USD",
  ]);
  expect(await tableRows(page)).toEqual([
    ["Date", "Entry", "Details", "Amount"],
    ["", "Opening balance", "", "$0.00"],
    [date(3), "Charge", "Drain Services · 10002", "$45.50"],
    [date(10), "Charge", "Drain Services · 10002", "$45.50"],
    [date(17), "Credit", "Drain Services · 10002 · Lead returned", "-$45.50"],
    [date(24), "Payment", "Check · 1001", "-$20.00"],
    [date(26), "Adjustment", "Goodwill", "-$5.00"],
    ["", "Closing balance", "", "$20.50"],
    ["", "Amount due", "", "$20.50"],
  ]);
  // The adjustment's internal note is the operator's own: only its note for the partner is printed.
  await expect(page.locator("body")).not.toContainText("complained");
  const howToPay = page.getByRole("region", { name: "How to pay" });
  await expect(howToPay).toContainText("Bank transfer to Plumbline LLC, account 1234.");
  await expect(howToPay).toContainText("Or a check to PO Box 9.");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }

  // The console: the partner's page lists the statement, and its CSV is the statement as issued, every time.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.url}/admin/login`);
  await signIn(page, OPERATOR, PASSWORD);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Partners", exact: true }).click();
  await page.getByRole("link", { name: "Lee Park", exact: true }).click();
  const statements = page.getByRole("table", { name: /^Statements/ });
  await expect(statements).toBeVisible();
  expect(await tableRows(statements)).toEqual([
    ["Statement", "Month", "Issued", "Closing balance", "Download"],
    [
      "1",
      month,
      expect.stringMatching(/^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M \w+$/),
      "$20.50",
      "Download statement (CSV), statement 1",
    ],
  ]);
  const download = async () => {
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      // Chromium names the link with a space before its visually hidden part: "… (CSV) , statement 1".
      statements.getByRole("link", { name: /^Download statement \(CSV\).*statement 1$/ }).click(),
    ]);
    expect(file.suggestedFilename()).toBe(`statement-1-${period}.csv`);
    return readFile(await file.path(), "utf8");
  };
  const csv = await download();
  // A negative amount alone is written as the number it is, which a spreadsheet sums; no cell runs as a formula
  // (docs/decisions/067).
  expect(csv).toBe(
    [
      "Statement,1",
      "Partner,Lee Park (Park Drains)",
      `Period,${month}`,
      "Currency,USD",
      "",
      "Date,Entry,Details,Amount",
      ",Opening balance,,0.00",
      `"${date(3)}",Charge,Drain Services · 10002,45.50`,
      `"${date(10)}",Charge,Drain Services · 10002,45.50`,
      `"${date(17)}",Credit,Drain Services · 10002 · Lead returned,-45.50`,
      `"${date(24)}",Payment,Check · 1001,-20.00`,
      `"${date(26)}",Adjustment,Goodwill,-5.00`,
      ",Closing balance,,20.50",
      ",Amount due,,20.50",
      "",
    ].join("\r\n"),
  );
  expect(await download()).toBe(csv);

  // "Preview statement": this month so far (no entries yet), dated today and due as an issued one would be.
  await page.getByRole("link", { name: "Preview statement" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Statement preview: Lee Park");
  await expect(page.getByText("Not issued: the month in progress")).toBeVisible();
  expect(await page.getByRole("term").allTextContents()).toEqual([
    "Statement",
    "Partner",
    "Period",
    "Issued",
    "Due",
    "Currency",
  ]);
  const thisMonth = new Date().toLocaleDateString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "America/New_York",
  });
  expect(await page.getByRole("definition").allTextContents()).toEqual([
    "Preview (not issued)",
    "Lee Park (Park Drains)",
    thisMonth,
    inNewYork(0),
    inNewYork(15),
    "USD",
  ]);
  expect(await tableRows(page.getByRole("region", { name: "Entries" }))).toEqual([
    ["Date", "Entry", "Details", "Amount"],
    ["", "Opening balance", "", "$20.50"],
    ["", "Closing balance", "", "$20.50"],
    ["", "Amount due", "", "$20.50"],
  ]);
  await expect(page.getByRole("region", { name: "How to pay" })).toContainText("Or a check to PO Box 9.");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }
});

test("the Partners page downloads the month's ledger for the accountant, and its amounts sum to the statement's", async ({
  page,
}) => {
  await page.goto(`${server.url}/admin/login`);
  await signIn(page, OPERATOR, PASSWORD);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Partners", exact: true }).click();
  await page.getByLabel("From month").fill(period);
  await page.getByLabel("To month").fill(period);
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download ledger (CSV)" }).click(),
  ]);
  expect(file.suggestedFilename()).toBe(`ledger-${period}.csv`);
  const [headings, ...rows] = (await readFile(await file.path(), "utf8"))
    .trimEnd()
    .split("\r\n")
    .map((line) => line.split(","));
  expect(headings).toEqual(["Date", "Description", "Amount", "Partner", "Kind", "Job", "Running balance", "Entry ID"]);
  const [year, month] = period.split("-");
  const usDate = (day: number) => `${month}/${String(day).padStart(2, "0")}/${year}`;
  // Amounts and balances are plain numbers, negatives too: a spreadsheet sums them to the statement's $20.50.
  expect(rows.map((row) => [row[0], row[3], row[4], row[2], row[6]])).toEqual([
    [usDate(3), "Lee Park (Park Drains)", "Charge", "45.50", "45.50"],
    [usDate(10), "Lee Park (Park Drains)", "Charge", "45.50", "91.00"],
    [usDate(17), "Lee Park (Park Drains)", "Credit", "-45.50", "45.50"],
    [usDate(24), "Lee Park (Park Drains)", "Payment", "-20.00", "25.50"],
    [usDate(26), "Lee Park (Park Drains)", "Adjustment", "-5.00", "20.50"],
  ]);
  expect(rows.reduce((sum, row) => sum + Math.round(Number(row[2]) * 100), 0)).toBe(2_050);
});
