import { expect, test } from "@playwright/test";
import { createOperator, signIn, uniqueOperatorEmail } from "./console.ts";
import { postContactRequest, uniquePhone } from "./console-leads.ts";
import { waitForHydration } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";

const PASSWORD = "correct horse battery staple";
let operator: string;

test.beforeAll(async () => {
  operator = uniqueOperatorEmail("leads");
  await createOperator(operator, PASSWORD);
});

test.describe("inbox", () => {
  test("a lead sent through the public contact form appears in the inbox, and search finds it by phone digits", async ({
    page,
  }) => {
    const marker = uniqueMarker();
    const phone = uniquePhone();
    await page.goto("/contact");
    // The toast is the app's answer: before hydration the form posts without it (its own test in contact.spec.ts).
    await waitForHydration(page);
    await page.getByLabel("First Name").fill("Maria");
    await page.getByLabel("Last Name").fill(marker);
    await page.getByLabel("Email").fill(`${marker}@example.com`);
    await page.getByLabel("Phone Number").fill(phone.display);
    await page.getByLabel("Service Needed").fill("Burst pipe under the sink");
    await page.getByLabel("Additional Details").fill("Water everywhere.");
    await page.getByRole("button", { name: "Send Request" }).click();
    await expect(page.locator("[data-sonner-toast]")).toContainText("Message sent successfully!");

    await page.goto("/admin");
    await signIn(page, operator, PASSWORD);
    const table = page.getByRole("table", { name: "Contact requests, newest first" });
    const row = table.getByRole("row").filter({ hasText: marker });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole("link", { name: phone.display })).toHaveAttribute("href", `tel:${phone.digits}`);
    await expect(row.getByRole("link", { name: `${marker}@example.com` })).toHaveAttribute(
      "href",
      `mailto:${marker}@example.com`,
    );
    await expect(row).toContainText("Burst pipe under the sink");
    await expect(row).toContainText("New");
    await expect(row.getByRole("cell").first()).toHaveText(/^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T$/);
    await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: /Inbox/ })).toContainText(
      /\d+ new/,
    );

    // The digits, written another way than the visitor wrote them.
    for (const search of [
      `${phone.digits.slice(3, 6)} ${phone.digits.slice(6)}`,
      `(${phone.digits.slice(0, 3)}) ${phone.digits.slice(3, 6)}`,
    ]) {
      await page.getByLabel("Search").fill(search);
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/[?&]q=/);
      await expect(table.getByRole("row").filter({ hasText: marker })).toHaveCount(1);
    }
    await page.getByLabel("Search").fill(phone.digits.slice(3));
    await page.getByRole("button", { name: "Search" }).click();
    await expect(table.getByRole("row")).toHaveCount(2);
  });

  test("filters by status, and answers a bad page link with 400, not an error", async ({ page, baseURL }) => {
    const marker = uniqueMarker();
    await postContactRequest(page.request, baseURL!, { lastName: marker, phone: uniquePhone().display });
    await page.goto("/admin");
    await signIn(page, operator, PASSWORD);
    await page.getByLabel("Search").fill(marker);
    await page.getByLabel("Status").selectOption("Booked");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("No contact requests match.")).toBeVisible();
    await page.getByLabel("Status").selectOption("New");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("row").filter({ hasText: marker })).toHaveCount(1);

    const lead = "00000000-0000-4000-8000-000000000009";
    for (const query of [
      "before=0",
      "after=abc",
      `before=${lead}&after=${lead}`,
      "status=Deleted",
      `q=${"x".repeat(101)}`,
    ]) {
      expect((await page.goto(`/admin?${query}`))?.status(), query).toBe(400);
      await expect(page.getByRole("alert")).toContainText("Search at most 100 characters");
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    }
    // A page after a lead that is gone (purged, say) is an empty page, not an error.
    expect((await page.goto(`/admin?before=${lead}`))?.status()).toBe(200);
  });
});

test.describe("lead page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a status change and a note survive a reload, with their history", async ({ page, baseURL }) => {
    const marker = uniqueMarker();
    const id = await postContactRequest(page.request, baseURL!, { lastName: marker, phone: uniquePhone().display });
    await page.goto(`/admin/leads/${id}`);
    await signIn(page, operator, PASSWORD);
    await expect(page).toHaveURL(`/admin/leads/${id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Maria ${marker}`);
    await expect(page.getByText("Water everywhere.")).toBeVisible();
    await expect(page.getByText(/^By submitting this form/)).toBeVisible();
    await expect(page.getByText("No changes yet.")).toBeVisible();

    await page.getByLabel("Status").selectOption("Contacted");
    await page.getByLabel("Note").fill(`Called back, booked for Thursday. ${marker}`);
    await page.getByRole("button", { name: "Save" }).click();
    const history = page.getByRole("region", { name: "History" }).getByRole("listitem");
    // The save's own page shows the entry; only then is reloading it a test of what was stored.
    await expect(history).toHaveCount(1);
    await page.reload();

    await expect(page.getByLabel("Status")).toHaveValue("Contacted");
    await expect(history).toHaveCount(1);
    await expect(history).toContainText("Status New → Contacted");
    await expect(history).toContainText(`Note: Called back, booked for Thursday. ${marker}`);
    await expect(history).toContainText(`by ${operator}`);
    await expect(history).toContainText(/E[SD]T, by/);

    // A second save adds to the history, newest first.
    await page.getByLabel("Status").selectOption("Booked");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(history).toHaveCount(2);
    await page.reload();
    await expect(history).toHaveCount(2);
    await expect(history.first()).toContainText("Status Contacted → Booked");
  });

  test("a note over 2,000 characters is refused with a 400 and changes nothing", async ({ page, baseURL }) => {
    const id = await postContactRequest(page.request, baseURL!, {
      lastName: uniqueMarker(),
      phone: uniquePhone().display,
    });
    await page.goto(`/admin/leads/${id}`);
    await signIn(page, operator, PASSWORD);
    // The field's maxlength stops a browser; a hand-made POST gets the server's answer.
    await page.getByLabel("Note").evaluate((field) => field.removeAttribute("maxlength"));
    await page.getByLabel("Status").selectOption("Spam");
    await page.getByLabel("Note").fill("x".repeat(2_001));
    const [response] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Save" }).click(),
    ]);
    expect(response.status()).toBe(400);
    await expect(page.getByLabel("Note")).toHaveAccessibleDescription(/at most 2,000 characters/);
    await page.goto(`/admin/leads/${id}`);
    await expect(page.getByLabel("Status")).toHaveValue("New");
    await expect(page.getByText("No changes yet.")).toBeVisible();
  });
});

test("a malformed or unknown lead id gets the 404 page", async ({ page }) => {
  await page.goto("/admin");
  await signIn(page, operator, PASSWORD);
  for (const id of ["not-a-lead", "00000000-0000-4000-8000-000000000000", "1%27%20OR%201=1"]) {
    const response = await page.goto(`/admin/leads/${id}`);
    expect(response?.status(), id).toBe(404);
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
  }
});

test("the leads CSV downloads as an attachment with the lead and its status", async ({ page, baseURL }) => {
  const marker = uniqueMarker();
  await postContactRequest(page.request, baseURL!, { lastName: `=cmd|${marker}`, phone: uniquePhone().display });
  await page.goto("/admin");
  await signIn(page, operator, PASSWORD);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download all leads (CSV)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString();
  const [header, ...rows] = text.trimEnd().split("\r\n");
  expect(header).toBe(
    "id,received_at,first_name,last_name,email,phone,service,message,channel,consent_text,global_privacy_control,status," +
      "landing_path,referrer_host,utm_source,utm_medium,utm_campaign,utm_term,utm_content,gclid,gbraid,wbraid,msclkid,fbclid",
  );
  const row = rows.find((line) => line.includes(marker));
  expect(row).toContain(`,'=cmd|${marker},`);
  expect(row).toMatch(/,api,.*,no,New,{12}$/);

  const response = await page.request.get("/admin/export/leads.csv");
  expect(response.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
});
