import { expect, test } from "@playwright/test";
import { prerenderedRoutes } from "./helpers.ts";

test("an unknown path answers 404 with the not-found page and logs the path", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const response = await page.goto("/no-such-page?x=1");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
  await expect.poll(() => errors.some((text) => text.includes("/no-such-page"))).toBe(true);
  // The chrome is still there, so the visitor can call.
  await expect(page.locator('a[data-phone-placement="header"]')).toBeVisible();
});

test("known pages answer without trailing-slash redirects", async ({ request }) => {
  for (const path of prerenderedRoutes().flatMap((route) => (route === "/" ? [route] : [route, `${route}/`]))) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(200);
  }
});

test("built assets are compressed and cached for a year", async ({ request }) => {
  const script = /\/assets\/[\w-]+\.js/.exec(await (await request.get("/")).text())?.[0];
  const response = await request.get(script!, { headers: { "Accept-Encoding": "gzip" } });
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toContain("immutable");
  expect(response.headers()["cache-control"]).toContain("max-age=31536000");
  expect(response.headers()["content-encoding"]).toBe("gzip");
  const html = await request.get("/", { headers: { "Accept-Encoding": "gzip" } });
  expect(html.headers()["content-encoding"]).toBe("gzip");
});

test("an unexpected error shows the generic error page with its status and no stack trace", async ({ request }) => {
  // A POST to a page without a form is the one error a visitor can cause on purpose.
  const response = await request.post("/", { form: { anything: "1" } });
  expect(response.status()).toBe(405);
  const html = await response.text();
  expect(html).toContain("Unexpected Application Error!");
  expect(html).toContain(">405<");
  expect(html).toContain("Method Not Allowed");
  expect(html).not.toMatch(/at \S+ \(|node_modules|\.tsx?:\d+/);
});
