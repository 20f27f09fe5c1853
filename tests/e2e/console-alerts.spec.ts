import { createECDH, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createOperator, signIn, uniqueOperatorEmail } from "./console.ts";
import { expectFitsTheScreen, expectNoAxeViolations, prerenderedRoutes } from "./helpers.ts";

const PASSWORD = "correct horse battery staple";

test("no public page registers a service worker or links a manifest; the console registers one scoped to /admin/", async ({
  page,
}) => {
  test.setTimeout(60_000);
  for (const path of prerenderedRoutes()) {
    await page.goto(path);
    await page.waitForLoadState("load");
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((all) => all.length)), path).toBe(
      0,
    );
    await expect(page.locator('link[rel="manifest"]')).toHaveCount(0);
  }
  const requests: string[] = [];
  page.on("request", (request) => requests.push(new URL(request.url()).pathname));
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(requests.filter((path) => path.startsWith("/admin"))).toEqual([]);

  const operator = uniqueOperatorEmail("alerts");
  await createOperator(operator, PASSWORD);
  await page.goto("/admin/account");
  await signIn(page, operator, PASSWORD);
  await expect
    .poll(() =>
      page.evaluate(() => navigator.serviceWorker.getRegistrations().then((all) => all.map((one) => one.scope))),
    )
    .toEqual([expect.stringMatching(/\/admin\/$/)]);
  const manifest = await page.evaluate(() =>
    fetch(document.querySelector<HTMLLinkElement>('link[rel="manifest"]')!.href, { credentials: "include" }).then(
      (response) => response.json(),
    ),
  );
  expect(manifest).toMatchObject({ scope: "/admin/", start_url: "/admin", display: "standalone" });

  // A public page in the same browser stays outside the console worker's scope.
  await page.goto("/contact");
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
});

test("the account page offers the alerts button with the Home Screen note, refuses a device that is not a subscription, and passes axe", async ({
  page,
}) => {
  const operator = uniqueOperatorEmail("alerts-page");
  await createOperator(operator, PASSWORD);
  await page.goto("/admin/account");
  await signIn(page, operator, PASSWORD);
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  const button = page.getByRole("button", { name: "Turn on alerts on this device" });
  await expect(button).toBeVisible();
  await expect(page.getByText(/add the console to the Home Screen/)).toBeVisible();
  await expect(page.getByText("None yet.")).toBeVisible();

  const refused = await page.evaluate(() =>
    fetch("/admin/alerts/devices", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ endpoint: "http://127.0.0.1/not-a-push-service", keys: { p256dh: "x", auth: "y" } }),
    }).then((response) => response.status),
  );
  expect(refused).toBe(400);

  // A device as a browser's PushManager describes it (its push service is unreachable here).
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const device = {
    endpoint: `https://127.0.0.1:9/push/${randomBytes(8).toString("hex")}`,
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
    deviceLabel: "Chrome on Android",
  };
  const saved = await page.evaluate(
    (body) =>
      fetch("/admin/alerts/devices", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }).then((response) => response.status),
    device,
  );
  expect(saved).toBe(204);
  await page.reload();
  await expect(page.getByRole("listitem").filter({ hasText: "Chrome on Android, since" })).toBeVisible();

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/admin/account");
    await expectNoAxeViolations(page);
    await expectFitsTheScreen(page, `${width} px`);
  }

  await page.getByRole("button", { name: /^Remove Chrome on Android/ }).dblclick();
  await expect(page.getByText("None yet.")).toBeVisible();
  await expect(page.getByRole("status").getByText("Alerts removed from Chrome on Android.")).toHaveCount(1);
});
