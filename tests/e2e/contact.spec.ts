import { expect, test, type Page } from "@playwright/test";
import { waitForHydration, expectNoAxeViolations } from "./helpers.ts";
import {
  LEAD_ENDPOINT,
  collectConsoleErrors,
  expectEmailContaining,
  holdLeadRequests,
  sonnerChunkUrl,
  submitBeforeHydration,
  uniqueMarker,
} from "./lead-forms.ts";

/** When the first toast appeared, on the page's clock. */
type ToastTiming = Window & { toastShownAt?: number };

const LABELS = ["First Name", "Last Name", "Email", "Phone Number", "Service Needed", "Additional Details"];

async function fillValidRequest(page: Page, marker: string) {
  await page.getByLabel("First Name").fill("Maria");
  await page.getByLabel("Last Name").fill("Garcia");
  await page.getByLabel("Email").fill("maria.garcia@example.com");
  await page.getByLabel("Phone Number").fill("(555) 234-5678");
  await page.getByLabel("Service Needed").fill("Burst pipe under the sink");
  await page.getByLabel("Additional Details").fill(`Water everywhere. ${marker}`);
}

test.describe("contact page with JavaScript", () => {
  test("shows the spec's copy, the fields in order with visible labels, the consent line and the opt-out link", async ({
    page,
  }) => {
    await page.goto("/contact");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact Us");
    await expect(page.getByText("Get in touch with our expert plumbing team. We're here to help 24/7.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Request a Free Estimate" })).toBeVisible();
    await expect(page.getByText("Fill out the form below and we'll get back to you within 24 hours.")).toBeVisible();
    await expect(page.locator('a[data-phone-placement="contact_hero"]')).toHaveAttribute("href", /^tel:\+/);

    const form = page.locator("form");
    // The honeypot's label is hidden from people and assistive tech alike.
    const labels = await form
      .locator("label")
      .evaluateAll((items) =>
        items.filter((label) => !label.closest("[aria-hidden=true]")).map((label) => label.textContent),
      );
    // The required fields, and the optional ZIP code after the phone number.
    expect(labels).toEqual([...LABELS.slice(0, 4), "ZIP Code(optional)", ...LABELS.slice(4)]);
    await expect(page.getByLabel("ZIP Code")).not.toHaveAttribute("required");
    await expect(page.getByLabel("Email")).toHaveAttribute("type", "email");
    await expect(page.getByLabel("Phone Number")).toHaveAttribute("type", "tel");
    await expect(page.getByLabel("Service Needed")).toHaveAttribute("placeholder", "Describe your plumbing issue");
    await expect(page.getByLabel("Additional Details")).toHaveAttribute("rows", "4");
    for (const label of LABELS) await expect(page.getByLabel(label)).toHaveAttribute("required", "");
    const first = await page.getByLabel("First Name").boundingBox();
    const last = await page.getByLabel("Last Name").boundingBox();
    expect(Math.abs(first!.y - last!.y)).toBeLessThan(2);
    expect(last!.x).toBeGreaterThan(first!.x);

    const button = page.getByRole("button", { name: "Send Request" });
    const consent = page.getByText(/^By submitting this form, you agree/);
    await expect(consent).toBeVisible();
    expect((await consent.boundingBox())!.y).toBeGreaterThan((await button.boundingBox())!.y);
    await expect(page.getByRole("link", { name: "Do Not Sell My Info" }).first()).toHaveAttribute(
      "href",
      "/do-not-sell",
    );
  });

  test("empty fields get messages tied to them, and the first invalid field gets focus", async ({ page }) => {
    const sent: string[] = [];
    // The page's own view count is not a form submission.
    page.on(
      "request",
      (request) => request.method() === "POST" && !request.url().endsWith("/api/events") && sent.push(request.url()),
    );
    await page.goto("/contact");
    await waitForHydration(page);
    await page.getByLabel("Email").fill("not an email");
    await page.getByLabel("ZIP Code").fill("1234");
    await page.getByRole("button", { name: "Send Request" }).click();

    const firstName = page.getByLabel("First Name");
    await expect(firstName).toBeFocused();
    await expect(firstName).toHaveAttribute("aria-invalid", "true");
    await expect(firstName).toHaveAccessibleDescription("First name is required");
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Please enter a valid email address");
    await expect(page.getByLabel("Phone Number")).toHaveAccessibleDescription("Phone number is required");
    await expect(page.getByLabel("ZIP Code")).toHaveAccessibleDescription(
      "Please enter a 5-digit ZIP code, like 10001",
    );
    expect(sent).toEqual([]);
    await expectNoAxeViolations(page);
  });

  test("sending disables the button, then a success toast shows for 4 s and every field is cleared", async ({
    page,
  }) => {
    const cspViolations = collectConsoleErrors(page);
    // The page's clock times the toast, so the check holds on a slow machine too.
    await page.clock.install();
    await page.goto("/contact");
    await waitForHydration(page);
    await page.evaluate(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector("[data-sonner-toast]")) return;
        (window as ToastTiming).toastShownAt = Date.now();
        observer.disconnect();
      }).observe(document.body, { childList: true, subtree: true });
    });
    const marker = uniqueMarker();
    const held = await holdLeadRequests(page);
    await fillValidRequest(page, marker);
    await page.getByRole("button", { name: "Send Request" }).click();

    const sending = page.getByRole("button", { name: "Sending..." });
    await expect(sending).toBeDisabled();
    held.release();

    const toast = page.locator("[data-sonner-toast]");
    await expect(toast).toContainText("Message sent successfully!");
    const shownAt = await page.evaluate(() => (window as ToastTiming).toastShownAt);
    // 3.9 s after it appeared, with the clock stopped there: still shown, and not on its way out.
    await page.clock.pauseAt(shownAt! + 3_900);
    await expect(toast).toContainText("We'll get back to you within 24 hours.");
    // Sonner's styles come from the stylesheet: the toast is laid out and nothing broke the CSP.
    expect(await toast.evaluate((element) => getComputedStyle(element).position)).toBe("absolute");
    await expect(toast).not.toHaveAttribute("data-removed", "true");
    await expect(page.getByRole("button", { name: "Send Request" })).toBeEnabled();
    for (const label of LABELS) await expect(page.getByLabel(label)).toHaveValue("");
    expect(held.bodies).toEqual([
      {
        firstName: "Maria",
        lastName: "Garcia",
        email: "maria.garcia@example.com",
        phone: "(555) 234-5678",
        service: "Burst pipe under the sink",
        message: `Water everywhere. ${marker}`,
        // The visit began on this page (docs/decisions/070).
        landing_path: "/contact",
      },
    ]);
    await expectEmailContaining(marker);

    // 4.4 s: it was due to go at 4 s, and sonner unmounts it 200 ms after that.
    await page.clock.runFor(500);
    await expect(toast).toHaveCount(0);
    expect(cspViolations.filter((text) => /Content Security Policy|Refused to/.test(text))).toEqual([]);
  });

  test("sonner loads once the visitor reaches the form; if it cannot, the form shows the outcome, and a later send tries again", async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    const uncaught: Error[] = [];
    page.on("pageerror", (error) => uncaught.push(error));
    const sonnerChunk = sonnerChunkUrl();
    let sonnerRequests = 0;
    await page.route(sonnerChunk, (route) => {
      sonnerRequests += 1;
      return route.abort("internetdisconnected");
    });
    await page.goto("/contact");
    await waitForHydration(page);
    expect(sonnerRequests, "sonner requested at page load").toBe(0);
    await page.getByLabel("First Name").focus();
    await expect.poll(() => sonnerRequests, { message: "sonner requested on focus" }).toBe(1);

    const form = page.locator("form");
    await page.route(LEAD_ENDPOINT, (route) =>
      route.fulfill({ status: 503, json: { error: "Storage unavailable", fieldErrors: {} } }),
    );
    const marker = uniqueMarker();
    await fillValidRequest(page, marker);
    await page.getByRole("button", { name: "Send Request" }).click();
    await expect(form.getByRole("alert")).toContainText("Error sending message");
    await expect(form.getByRole("alert")).toContainText("Please try again or call us directly.");
    await expect(page.getByLabel("Additional Details")).toHaveValue(`Water everywhere. ${marker}`);

    await page.unroute(LEAD_ENDPOINT);
    await page.getByRole("button", { name: "Send Request" }).click();
    await expect(form.getByRole("status")).toContainText("Message sent successfully!");
    await expect(form.getByRole("status")).toContainText("We'll get back to you within 24 hours.");
    await expect(form.getByRole("alert")).toHaveCount(0);
    for (const label of LABELS) await expect(page.getByLabel(label)).toHaveValue("");
    await expectEmailContaining(marker);
    // Each send tried again (the failed download is not kept); each failure was logged, none left uncaught.
    expect(sonnerRequests).toBeGreaterThanOrEqual(3);
    expect(errors.filter((text) => text.startsWith("Toasts could not be loaded:")).length).toBe(sonnerRequests);
    expect(uncaught).toEqual([]);

    // The connection is back: the next send shows its toast, and no notice.
    await page.unroute(sonnerChunk);
    await fillValidRequest(page, uniqueMarker());
    await page.getByRole("button", { name: "Send Request" }).click();
    await expect(page.locator("[data-sonner-toast]")).toContainText("Message sent successfully!");
    await expect(form.getByRole("status")).toHaveCount(0);
  });

  test("after a refused submit made before hydration, a successful send clears every field", async ({ page }) => {
    await submitBeforeHydration(page);
    await page.goto("/contact");
    const marker = uniqueMarker();
    await fillValidRequest(page, marker);
    await page.getByLabel("Phone Number").fill("12");
    await page.getByRole("button", { name: "Send Request" }).click();

    // The server's page: its error, and the values it got back rendered as the fields' defaults.
    const phone = page.getByLabel("Phone Number");
    await expect(phone).toHaveAccessibleDescription("Please enter a valid phone number");
    await expect(page.getByLabel("First Name")).toHaveAttribute("value", "Maria");
    await waitForHydration(page);
    await phone.fill("555-234-5678");
    await page.getByRole("button", { name: "Send Request" }).click();

    await expect(page.locator("[data-sonner-toast]")).toContainText("Message sent successfully!");
    for (const label of LABELS) await expect(page.getByLabel(label)).toHaveValue("");
    await expectEmailContaining(marker);
  });

  test("a retry after a failure sends the same submission id, so the lead is stored once; the next request gets a new one", async ({
    page,
  }) => {
    await page.goto("/contact");
    await waitForHydration(page);
    const keys: string[] = [];
    await page.route(LEAD_ENDPOINT, (route) => {
      keys.push(route.request().headers()["idempotency-key"] ?? "");
      // The first send is lost on the way back; the others reach the server.
      return keys.length === 1
        ? route.fulfill({ status: 503, json: { error: "Storage unavailable", fieldErrors: {} } })
        : route.continue();
    });
    const marker = uniqueMarker();
    await fillValidRequest(page, marker);
    const send = page.getByRole("button", { name: "Send Request" });
    await send.click();
    await expect(page.locator("[data-sonner-toast]")).toContainText("Error sending message");
    await send.click();
    await expect(page.locator("[data-sonner-toast]").first()).toContainText("Message sent successfully!");
    await fillValidRequest(page, uniqueMarker());
    await send.click();
    await expect.poll(() => keys.length).toBe(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[2]).not.toBe(keys[0]);
    await expectEmailContaining(marker);
  });

  for (const failure of ["a 503 answer", "a network error"] as const) {
    test(`${failure} shows the error toast, logs the error, and keeps the fields`, async ({ page }) => {
      const errors = collectConsoleErrors(page);
      await page.goto("/contact");
      await waitForHydration(page);
      await page.route(LEAD_ENDPOINT, (route) =>
        failure === "a network error"
          ? route.abort("connectionrefused")
          : route.fulfill({ status: 503, json: { error: "Storage unavailable", fieldErrors: {} } }),
      );
      const marker = uniqueMarker();
      await fillValidRequest(page, marker);
      await page.getByRole("button", { name: "Send Request" }).click();

      const toast = page.locator("[data-sonner-toast]");
      await expect(toast).toContainText("Error sending message");
      await expect(toast).toContainText("Please try again or call us directly.");
      await expect(toast).toHaveAttribute("data-type", "error");
      await expect(page.getByRole("button", { name: "Send Request" })).toBeEnabled();
      await expect(page.getByLabel("First Name")).toHaveValue("Maria");
      await expect(page.getByLabel("Additional Details")).toHaveValue(`Water everywhere. ${marker}`);
      expect(errors.some((text) => text.startsWith("Error sending message:"))).toBe(true);
      await expect(page.getByText("Message sent successfully!")).toHaveCount(0);
    });
  }
});

test.describe("contact page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server validates, keeps the values and focuses the field; a valid request shows the success message", async ({
    page,
  }) => {
    await page.goto("/contact");
    const marker = uniqueMarker();
    await fillValidRequest(page, marker);
    await page.getByLabel("Phone Number").fill("12");
    await page.getByRole("button", { name: "Send Request" }).click();

    await expect(page).toHaveURL(/\/contact$/);
    const phone = page.getByLabel("Phone Number");
    await expect(phone).toHaveAttribute("aria-invalid", "true");
    await expect(phone).toHaveAccessibleDescription("Please enter a valid phone number");
    await expect(phone).toBeFocused();
    await expect(page.getByLabel("First Name")).toHaveValue("Maria");
    await expect(page.getByLabel("Additional Details")).toHaveValue(`Water everywhere. ${marker}`);

    await phone.fill("555-234-5678");
    await page.getByRole("button", { name: "Send Request" }).click();
    await expect(page.getByRole("status")).toContainText("Message sent successfully!");
    await expect(page.getByRole("status")).toContainText("We'll get back to you within 24 hours.");
    for (const label of LABELS) await expect(page.getByLabel(label)).toHaveValue("");
    await expectEmailContaining(marker);
  });
});
