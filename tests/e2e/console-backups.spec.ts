import { expect, test } from "@playwright/test";
import { createOperator, runCli, signIn, uniqueOperatorEmail } from "./console.ts";
import { expectFitsTheScreen, expectNoAxeViolations } from "./helpers.ts";

const PASSWORD = "correct horse battery staple";

test("npm run backup while the server runs: the Outbox page shows the backup, its size and that it verified", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const operator = uniqueOperatorEmail("backups");
  await createOperator(operator, PASSWORD);
  const backup = await runCli("backup", []);
  expect(backup.code, backup.stderr).toBe(0);
  const file = /plumbline-\d{8}T\d{6}Z\.pglite\.gz/.exec(backup.stdout)?.[0];
  expect(file, backup.stdout).toBeDefined();

  await page.goto("/admin/outbox");
  await signIn(page, operator, PASSWORD);
  const backups = page.getByRole("region", { name: "Backups" });
  await expect(backups).toContainText(file!);
  await expect(backups).toContainText(/Size\s*\d+\.\d MB/);
  await expect(backups).toContainText("Yes: restored into a scratch database");
  await page.setViewportSize({ width: 390, height: 800 });
  await expectNoAxeViolations(page);
  await expectFitsTheScreen(page, "390 px");
});
