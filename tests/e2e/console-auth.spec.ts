import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { expectNoAxeViolations, waitForHydration } from "./helpers.ts";
import { createOperator, runCli, signIn, uniqueOperatorEmail } from "./console.ts";

const PASSWORD = "long enough passphrase";

// Every test stands for its own client address, so locking one out never locks out the others.
const clientAddress = () => `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;

test.beforeEach(async ({ page }) => {
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress() });
});

// Posted as the sign-in page's own form is: the console refuses a post that does not prove its origin.
const postSignIn = (request: APIRequestContext, email: string, password: string, from: string) =>
  request.post("/admin/login", {
    form: { email, password, next: "/admin" },
    headers: { "X-Forwarded-For": from, Origin: new URL(test.info().project.use.baseURL!).origin },
    maxRedirects: 0,
  });

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a signed-out visit is sent to sign in, which then lands where it was going", async ({ page }) => {
    const email = uniqueOperatorEmail("next");
    await createOperator(email, PASSWORD);
    const response = await page.request.get("/admin?page=2", { maxRedirects: 0 });
    expect(response.status()).toBe(303);
    expect(response.headers()["location"]).toBe("/admin/login?next=%2Fadmin%3Fpage%3D2");

    await page.goto("/admin?page=2");
    await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%3Fpage%3D2$/);
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/admin\?page=2$/);
  });

  test("a wrong password and an unknown email get the same 401 answer", async ({ page }) => {
    const email = uniqueOperatorEmail("wrong");
    await createOperator(email, PASSWORD);
    for (const [tried, password] of [
      [email, "not the password at all"],
      [uniqueOperatorEmail("nobody"), PASSWORD],
    ] as const) {
      await page.goto("/admin/login");
      await page.getByLabel("Email").fill(tried);
      await page.getByLabel("Password").fill(password);
      const [response] = await Promise.all([
        page.waitForResponse((candidate) => candidate.request().method() === "POST"),
        page.getByRole("button", { name: "Sign in" }).click(),
      ]);
      expect(response.status()).toBe(401);
      await expect(page.getByRole("alert")).toHaveText("Wrong email or password.");
    }
  });
});

test("five failed sign-ins from one address lock that address out for the account, not the operator elsewhere", async ({
  request,
}) => {
  const email = uniqueOperatorEmail("locked");
  await createOperator(email, PASSWORD);
  const attacker = clientAddress();
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    expect((await postSignIn(request, email, "wrong password!", attacker)).status()).toBe(401);
  }
  // Even the right password is refused from that address now, with the time left.
  const locked = await postSignIn(request, email, PASSWORD, attacker);
  expect(locked.status()).toBe(429);
  const retryAfter = Number(locked.headers()["retry-after"]);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  expect(locked.headers()["set-cookie"]).toBeUndefined();
  // The operator, from their own address, still gets in.
  const fromElsewhere = await postSignIn(request, email, PASSWORD, clientAddress());
  expect(fromElsewhere.status()).toBe(303);
  expect(fromElsewhere.headers()["location"]).toBe("/admin");
});

test("an address guessing at many accounts is locked out after 20 attempts, for every account", async ({ request }) => {
  const email = uniqueOperatorEmail("victim");
  await createOperator(email, PASSWORD);
  const attacker = clientAddress();
  for (let attempt = 1; attempt <= 20; attempt += 1) {
    expect((await postSignIn(request, uniqueOperatorEmail("guess"), PASSWORD, attacker)).status()).toBe(401);
  }
  const locked = await postSignIn(request, email, PASSWORD, attacker);
  expect(locked.status()).toBe(429);
  expect(Number(locked.headers()["retry-after"])).toBeGreaterThan(0);
  const fromElsewhere = await postSignIn(request, email, PASSWORD, clientAddress());
  expect(fromElsewhere.status()).toBe(303);
});

test("npm run operator -- unlock lets a locked-out operator sign in at once", async ({ request }) => {
  const email = uniqueOperatorEmail("unlock");
  await createOperator(email, PASSWORD);
  const office = clientAddress();
  for (let attempt = 1; attempt <= 5; attempt += 1) await postSignIn(request, email, "wrong password!", office);
  expect((await postSignIn(request, email, PASSWORD, office)).status()).toBe(429);
  const unlocked = await runCli("operator", ["unlock", email]);
  expect(unlocked.code, unlocked.stderr).toBe(0);
  expect(unlocked.stdout).toContain(`Sign-in for ${email} is unlocked.`);
  expect((await postSignIn(request, email, PASSWORD, office)).status()).toBe(303);
});

test("the session cookie is HttpOnly and SameSite=Lax", async ({ page, context }) => {
  const email = uniqueOperatorEmail("cookie");
  await createOperator(email, PASSWORD);
  await signIn(page, email, PASSWORD);
  const cookies = await context.cookies();
  expect(cookies).toHaveLength(1);
  expect(cookies[0]).toMatchObject({ name: "plumbline_session", httpOnly: true, sameSite: "Lax" });
  // SITE_URL is http here; the Secure flag for https sites is covered by session-cookie.server.test.ts.
  expect(cookies[0]!.secure).toBe(false);
});

test("signing out ends the session on the server: the old cookie replayed is sent to sign in", async ({
  page,
  context,
  playwright,
  baseURL,
}) => {
  const email = uniqueOperatorEmail("signout");
  await createOperator(email, PASSWORD);
  await signIn(page, email, PASSWORD);
  const [session] = await context.cookies();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect(await context.cookies()).toEqual([]);

  const replay = await playwright.request.newContext({ baseURL });
  const response = await replay.get("/admin", {
    headers: { Cookie: `${session!.name}=${session!.value}` },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  expect(response.headers()["location"]).toBe("/admin/login?next=%2Fadmin");
  await replay.dispose();
});

test("every /admin path is marked noindex, signed in or not", async ({ page, request }) => {
  for (const path of ["/admin", "/admin/login", "/admin/no-such-page", "/admin/export/leads.csv"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.headers()["x-robots-tag"], path).toBe("noindex");
  }
  const email = uniqueOperatorEmail("noindex");
  await createOperator(email, PASSWORD);
  await signIn(page, email, PASSWORD);
  for (const path of ["/admin", "/admin/no-such-page"]) {
    const response = await page.goto(path);
    expect(response!.headers()["x-robots-tag"], path).toBe("noindex");
  }
});

test("sign-in never sends the operator off the console", async ({ page }) => {
  const email = uniqueOperatorEmail("redirect");
  await createOperator(email, PASSWORD);
  for (const next of ["//evil.example/", "https://evil.example/admin", "/\\evil.example", "/admin/../contact"]) {
    await page.context().clearCookies();
    await page.goto(`/admin/login?next=${encodeURIComponent(next)}`);
    await signIn(page, email, PASSWORD);
    await expect(page, next).toHaveURL(/^http:\/\/localhost:\d+\/admin$/);
  }
});

test("a sign-in posted from another site is refused", async ({ request }) => {
  const email = uniqueOperatorEmail("csrf");
  await createOperator(email, PASSWORD);
  const response = await request.post("/admin/login", {
    form: { email, password: PASSWORD },
    headers: { Origin: "https://evil.example", "X-Forwarded-For": clientAddress() },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
  expect(response.headers()["set-cookie"]).toBeUndefined();
});

test("the console stays out of search engines and out of the prerendered site", async ({ request }) => {
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toMatch(/^Disallow: \/admin$/m);
  expect(await (await request.get("/sitemap.xml")).text()).not.toContain("/admin");
  const clientDir = join(process.cwd(), "build/client");
  expect(existsSync(clientDir)).toBe(true);
  const files = readdirSync(clientDir, { recursive: true }).map(String);
  expect(files.filter((file) => /(^|\/)admin(\/|\.|$)/.test(file))).toEqual([]);
});

test("axe finds no violations on the sign-in page and the console, at 1280 and 390 px", async ({ page }) => {
  const email = uniqueOperatorEmail("axe");
  await createOperator(email, PASSWORD);
  for (const width of [1280, 390]) {
    await page.context().clearCookies();
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/admin/login");
    await waitForHydration(page);
    await expectNoAxeViolations(page);
    await signIn(page, email, PASSWORD);
    await waitForHydration(page);
    await expectNoAxeViolations(page);
  }
});
