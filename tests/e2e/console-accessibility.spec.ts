import { expect, test } from "@playwright/test";
import { createOperator, signIn, uniqueOperatorEmail } from "./console.ts";
import { postContactRequest, postOptOutRequest, uniquePhone } from "./console-leads.ts";
import { expectNoAxeViolations, waitForHydration } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";

const PASSWORD = "correct horse battery staple";

test("axe finds no violations on any console page, at 1280 px and on a 390 px phone", async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const operator = uniqueOperatorEmail("axe");
  await createOperator(operator, PASSWORD);
  const marker = uniqueMarker();
  const leadId = await postContactRequest(page.request, baseURL!, { lastName: marker, phone: uniquePhone().display });
  const doneId = await postOptOutRequest(page.request, baseURL!, `Done ${marker}`);
  await postOptOutRequest(page.request, baseURL!, `Open ${marker}`);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/admin/leads/${leadId}`);
  await signIn(page, operator, PASSWORD);
  // A history entry and a done opt-out, so every part of every page is there to check.
  await page.getByLabel("Status").selectOption("Contacted");
  await page.getByLabel("Note").fill("Called back.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("region", { name: "History" }).getByRole("listitem")).toHaveCount(1);
  await page.goto("/admin/opt-outs");
  await page.getByRole("button", { name: `Mark done: Done ${marker}` }).click();
  await expect(page.getByRole("table", { name: /done/ }).getByText(`Done ${marker}`)).toBeVisible();
  expect(doneId).toBeTruthy();

  for (const path of ["/admin", `/admin?q=${marker}`, `/admin/leads/${leadId}`, "/admin/opt-outs", "/admin/outbox"]) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(path);
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
      await expectNoAxeViolations(page);
      // Wide tables scroll inside their own region; the page itself never scrolls sideways.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${path} at ${width} px`,
      ).toBeLessThanOrEqual(width);
    }
  }
});

test("what is typed in any console form before the page's scripts have run is still there after they have", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const operator = uniqueOperatorEmail("hydration");
  await createOperator(operator, PASSWORD);
  const marker = uniqueMarker();
  const leadId = await postContactRequest(page.request, baseURL!, { lastName: marker, phone: uniquePhone().display });
  await page.goto("/admin/partners");
  await signIn(page, operator, PASSWORD);
  await waitForHydration(page);
  await page.getByLabel("Name").fill(`Kim ${marker}`);
  await page.getByLabel("Business").fill("Kim Plumbing");
  await page.getByLabel("Phone").fill("555-010-4321");
  await page.getByLabel("Email").fill(`kim-${marker.toLowerCase()}@partner.example`);
  await page.getByRole("checkbox", { name: "Drain Services" }).check();
  await page.getByRole("button", { name: "Save partner" }).click();
  await page.getByRole("link", { name: `Kim ${marker}` }).click();
  const partnerPath = new URL(page.url()).pathname;

  // A page whose first render in the browser differs from the server's is rendered again from scratch, fields and all.
  const hydrationErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /hydrat/i.test(message.text())) hydrationErrors.push(message.text());
  });
  // The app's scripts are held back while each page's fields are typed in, then let through.
  let release = () => {};
  let held = Promise.resolve();
  await page.route("**/assets/*.js", async (route) => {
    await held;
    await route.continue();
  });
  const pages = [
    "/admin",
    `/admin/leads/${leadId}`,
    "/admin/partners",
    partnerPath,
    "/admin/api-keys",
    "/admin/opt-outs",
    "/admin/outbox",
    "/admin/conversions",
    "/admin/dashboard",
    "/admin/integrations",
    "/admin/account",
  ];
  for (const path of pages) {
    held = new Promise<void>((resolve) => (release = resolve));
    await page.goto(path, { waitUntil: "domcontentloaded" });
    const fields = page.locator(
      "main form input:is([type=text], [type=email], [type=tel], [type=url], [type=search], [type=number], [type=date], :not([type])):visible:not([readonly]), main form textarea:visible",
    );
    const count = await fields.count();
    const typed: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const field = fields.nth(index);
      const type = await field.getAttribute("type");
      const numeric = type === "number" || (await field.getAttribute("inputmode")) !== null;
      await field.fill(type === "date" ? "2026-11-20" : numeric ? `${index + 1}` : `typed ${index}`);
      // As the field took it (its length limit applied).
      typed.push(await field.inputValue());
    }
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated), path).toBeUndefined();
    release();
    await waitForHydration(page);
    // Whatever the page does once it is live (its effects included) is done by the next frame.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
    for (let index = 0; index < count; index += 1) {
      await expect(fields.nth(index), `${path}, field ${index + 1} of ${count}`).toHaveValue(typed[index]!);
    }
    expect(hydrationErrors, path).toEqual([]);
  }
});
