import { expect, test, type Request } from "@playwright/test";
import { countOf, countRows, stayOnPageForTelLinks, VISITOR_USER_AGENT } from "./attribution.ts";
import { createOperator, signIn, uniqueOperatorEmail } from "./console.ts";
import { expectNoAxeViolations, waitForHydration } from "./helpers.ts";
import { uniqueMarker } from "./lead-forms.ts";

const PASSWORD = "correct horse battery staple";
let operator: string;

test.beforeAll(async () => {
  operator = uniqueOperatorEmail("dashboard");
  await createOperator(operator, PASSWORD);
});

const FIXED_FIELDS = ["kind", "path", "placement", "source", "medium", "campaign"];
const beaconsOf = (requests: Request[]) =>
  requests
    .filter((request) => new URL(request.url()).pathname === "/api/events")
    .map((request) => request.postDataJSON() as Record<string, unknown>);

test("calls on two pages of a campaign visit show on the dashboard under their page, placement and campaign", async ({
  browser,
}) => {
  // A campaign of this test's own, so figures other tests add at the same time never mix in.
  const campaign = `spring-${uniqueMarker()}`;
  const visitor = await browser.newPage({ userAgent: VISITOR_USER_AGENT });
  await stayOnPageForTelLinks(visitor);
  const requests: Request[] = [];
  visitor.on("request", (request) => requests.push(request));

  await visitor.goto(`/?utm_source=google&utm_medium=cpc&utm_campaign=${campaign}`);
  // A click before the app's scripts have started is counted too.
  await visitor.locator('main a[data-phone-placement="hero"]').first().click();
  await waitForHydration(visitor);
  // On to the contact page within the same visit (a client-side navigation), and a call from there.
  await visitor.getByRole("link", { name: "Contact", exact: true }).first().click();
  await expect(visitor).toHaveURL(/\/contact$/);
  await visitor.locator('a[data-phone-placement="contact_hero"]').click();

  await expect.poll(() => beaconsOf(requests).length).toBeGreaterThanOrEqual(4);
  const beacons = beaconsOf(requests);
  // Nothing but the fixed fields: no id, no time, no screen or browser details.
  for (const body of beacons) for (const key of Object.keys(body)) expect(FIXED_FIELDS).toContain(key);
  expect(beacons).toEqual(
    expect.arrayContaining([
      { kind: "view", path: "/", source: "google", medium: "cpc", campaign },
      { kind: "call", path: "/", placement: "hero", source: "google", medium: "cpc", campaign },
      { kind: "view", path: "/contact", source: "google", medium: "cpc", campaign },
      { kind: "call", path: "/contact", placement: "contact_hero", source: "google", medium: "cpc", campaign },
    ]),
  );
  await visitor.close();

  const page = await browser.newPage();
  await page.goto("/admin/dashboard");
  await signIn(page, operator, PASSWORD);
  const ours = { source: "google", medium: "cpc", campaign };
  await expect
    .poll(async () => {
      const rows = await countRows(page);
      return [
        countOf(rows, { ...ours, kind: "view", path: "/" }),
        countOf(rows, { ...ours, kind: "call", path: "/", placement: "hero" }),
        countOf(rows, { ...ours, kind: "view", path: "/contact" }),
        countOf(rows, { ...ours, kind: "call", path: "/contact", placement: "contact_hero" }),
      ];
    })
    .toEqual([1, 1, 1, 1]);

  await page.goto("/admin/dashboard?days=7");
  const bySource = page.getByRole("table", { name: /by the visit's source, medium and campaign/ });
  const campaignRow = bySource.getByRole("row").filter({ hasText: campaign });
  await expect(campaignRow.getByRole("cell")).toHaveText(["cpc", campaign, "2", "2", "0"]);
  await expect(campaignRow.getByRole("rowheader")).toHaveText("google");
  const byPage = page.getByRole("table", { name: /by page/ });
  for (const path of ["/", "/contact"]) {
    const calls = Number(
      await byPage
        .getByRole("row")
        .filter({ has: page.getByRole("rowheader", { name: path, exact: true }) })
        .getByRole("cell")
        .nth(1)
        .textContent(),
    );
    expect(calls, path).toBeGreaterThanOrEqual(1);
  }
  const byPlacement = page.getByRole("table", { name: /where the call link sits/ });
  for (const placement of ["hero", "contact_hero"]) {
    await expect(byPlacement.getByRole("rowheader", { name: placement, exact: true })).toBeVisible();
  }
  // The daily table is folded behind its disclosure.
  await page.getByText("Figures per day (table)").click();
  const figures = page.getByRole("region", { name: "Figures per day" });
  await expect(figures.getByRole("row")).toHaveCount(8);
  await expect(page.getByRole("img", { name: /Calls and leads per day/ })).toBeVisible();
  await page.close();
});

test("a tel: click with scripts blocked still dials, and nothing is counted for that visit", async ({ browser }) => {
  const source = `noscript-${uniqueMarker()}`;
  const context = await browser.newContext({ javaScriptEnabled: false, userAgent: VISITOR_USER_AGENT });
  const visitor = await context.newPage();
  const dialled = visitor.waitForRequest((request) => request.url().startsWith("tel:"));
  await visitor.goto(`/?utm_source=${source}`);
  await visitor.locator('main a[data-phone-placement="hero"]').first().click();
  expect((await dialled).url()).toMatch(/^tel:\+\d+$/);
  await context.close();

  const page = await browser.newPage();
  await page.goto("/admin/dashboard");
  await signIn(page, operator, PASSWORD);
  // A visit that ran no script sends neither its view nor its call: the figures never hold a call without its view.
  await page.waitForTimeout(500);
  expect(countOf(await countRows(page), { source })).toBe(0);
  await page.close();
});

test("hostile beacon bodies get 4xx and change nothing", async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const marker = `hostile-${uniqueMarker()}`;
  const page = await browser.newPage({ userAgent: VISITOR_USER_AGENT });
  await page.goto("/admin/dashboard");
  await signIn(page, operator, PASSWORD);
  const send = (body: string) =>
    page.request.post("/api/events", { headers: { "Content-Type": "text/plain", Origin: baseURL! }, data: body });
  const hostile: [string, string, number][] = [
    ["oversized", JSON.stringify({ kind: "view", path: "/", source: marker, campaign: "x".repeat(4000) }), 413],
    ["unknown label", JSON.stringify({ kind: "call", path: "/", placement: "evil", source: marker }), 422],
    ["javascript: path", JSON.stringify({ kind: "view", path: "javascript:alert(1)", source: marker }), 422],
    ["extra field", JSON.stringify({ kind: "view", path: "/", source: marker, visitorId: "abc" }), 422],
  ];
  for (const [name, body, status] of hostile) expect((await send(body)).status(), name).toBe(status);
  // 1,000 distinct made-up paths, sent from the browser as a flood would be.
  const statuses = await page.evaluate(async (source) => {
    const seen: Record<number, number> = {};
    for (let batch = 0; batch < 10; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          fetch("/api/events", {
            method: "POST",
            headers: { "Content-Type": "text/plain" },
            body: JSON.stringify({ kind: "view", path: `/flood-${batch * 100 + index}`, source }),
          }).then((response) => response.status),
        ),
      );
      for (const status of answers) seen[status] = (seen[status] ?? 0) + 1;
    }
    return seen;
  }, marker);
  expect(statuses).toEqual({ 422: 1_000 });

  await page.waitForTimeout(500);
  const rows = await countRows(page);
  expect(countOf(rows, { source: marker })).toBe(0);
  expect(rows.filter((row) => row.path.startsWith("/flood-") || row.path.startsWith("javascript:"))).toEqual([]);
  await page.close();
});

test("the dashboard validates its range and passes axe at 1280 and 390 px", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/admin/dashboard");
  await signIn(page, operator, PASSWORD);
  await page.getByLabel("Range").selectOption("90");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/days=90$/);
  await page.getByText("Figures per day (table)").click();
  await expect(page.getByRole("region", { name: "Figures per day" }).getByRole("row")).toHaveCount(91);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
  }
  expect((await page.request.get("/admin/dashboard?days=12")).status()).toBe(400);
  expect((await page.request.get("/admin/export/site-events.csv?days=abc")).status()).toBe(400);
  await expect(
    page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Dashboard" }),
  ).toHaveAttribute("aria-current", "page");
});
