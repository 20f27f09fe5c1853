import { expect, test } from "@playwright/test";
import { createOperator, signIn, uniqueOperatorEmail } from "./console.ts";
import { uniqueMarker } from "./lead-forms.ts";

const PASSWORD = "correct horse battery staple";
const DAY_MS = 86_400_000;
let operator: string;

test.beforeAll(async () => {
  operator = uniqueOperatorEmail("opt-outs");
  await createOperator(operator, PASSWORD);
});

/** A date as the console shows it, in the operator's zone (the test server runs with the default). */
const consoleDate = (instant: number) =>
  new Intl.DateTimeFormat("en-US", {
    timeZone: "America/New_York",
    year: "numeric",
    month: "short",
    day: "numeric",
  }).format(instant);

test("an opt-out sent from /do-not-sell shows with its due date, is marked done, and moves below", async ({ page }) => {
  const marker = uniqueMarker();
  const sentFrom = Date.now();
  await page.goto("/do-not-sell");
  await page.getByLabel("Full Name").fill(`Jordan ${marker}`);
  await page.getByLabel("Email Address").fill(`${marker}@example.com`);
  await page.getByLabel("Additional Information").fill("Please do not sell my data.");
  await page.getByRole("button", { name: "Submit Opt-Out Request" }).click();
  await expect(page.getByRole("status")).toContainText("Request Submitted");
  const sentBy = Date.now();

  await page.goto("/admin/opt-outs");
  await signIn(page, operator, PASSWORD);
  await expect(page).toHaveURL("/admin/opt-outs");
  const open = page.getByRole("table", { name: "Open opt-out requests, soonest due first" });
  const row = open.getByRole("row").filter({ hasText: marker });
  await expect(row).toHaveCount(1);
  const dueDates = new Set([consoleDate(sentFrom + 30 * DAY_MS), consoleDate(sentBy + 30 * DAY_MS)]);
  const due = await row.getByRole("cell").nth(2).textContent();
  expect(dueDates).toContain(due);
  await expect(row).toContainText(/(29|30) days left/);
  await expect(row).not.toContainText("Overdue");
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: /Opt-outs/ })).toContainText(
    /\d+ open/,
  );

  await row.getByRole("button", { name: `Mark done: Jordan ${marker}` }).click();
  await expect(open.getByRole("row").filter({ hasText: marker })).toHaveCount(0);
  const done = page.getByRole("table", { name: "Opt-out requests done, most recent first" });
  const doneRow = done.getByRole("row").filter({ hasText: marker });
  await expect(doneRow).toHaveCount(1);
  await expect(doneRow).toContainText(operator);
  await expect(doneRow).toContainText(/E[SD]T/);
});

test("the opt-outs CSV downloads as an attachment with each request's status", async ({ page, baseURL }) => {
  const marker = uniqueMarker();
  const response = await page.request.post("/functions/v1/send-contact-email", {
    headers: { Origin: baseURL! },
    data: { type: "opt-out", name: `Sam; ${marker}`, email: `${marker}@example.com` },
  });
  expect(response.ok()).toBe(true);
  await page.goto("/admin/opt-outs");
  await signIn(page, operator, PASSWORD);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download all opt-outs (CSV)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^opt-outs-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString();
  const [header, ...rows] = text.trimEnd().split("\r\n");
  expect(header).toBe("id,received_at,due_at,completed_at,name,email,message,channel,status,completed_by");
  // A name holding the separator of semicolon locales is quoted.
  expect(rows.find((line) => line.includes(marker))).toMatch(
    new RegExp(`,,"Sam; ${marker}",${marker}@example.com,,api,open,$`),
  );

  const direct = await page.request.get("/admin/export/opt-outs.csv");
  expect(direct.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(direct.headers()["content-disposition"]).toMatch(/^attachment; filename="opt-outs-\d{4}-\d{2}-\d{2}\.csv"$/);
});
