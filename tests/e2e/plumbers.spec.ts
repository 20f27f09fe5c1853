import { expect, test, type Page } from "@playwright/test";
import { env, toPublicSiteConfig } from "../../app/config/env.server.ts";
import {
  clickVisibleCallLinks,
  mockLookups,
  recordAnalytics,
  recordedPhoneClicks,
  waitForHydration,
} from "./helpers.ts";

const { geolocation, phone } = toPublicSiteConfig(env);
const REVERSE_URL = geolocation.reverseGeocodeUrl!;
const IP_URL = geolocation.ipLookupUrl!;

/** Counts calls to getCurrentPosition, which would show the permission prompt when not yet granted. */
async function countPositionRequests(page: Page) {
  await page.addInitScript(() => {
    const geolocation = navigator.geolocation;
    const original = geolocation.getCurrentPosition.bind(geolocation);
    Object.assign(window, { __positionRequests: 0 });
    geolocation.getCurrentPosition = (...args) => {
      (window as unknown as { __positionRequests: number }).__positionRequests += 1;
      original(...args);
    };
  });
  return () => page.evaluate(() => (window as unknown as { __positionRequests: number }).__positionRequests);
}

const locationLine = (page: Page) => page.getByTestId("location-line");

async function expectLine(page: Page, text: string) {
  // innerText: only the visible wording counts (the no-script variant is hidden by CSS).
  await expect(locationLine(page)).toHaveText(text, { useInnerText: true });
}

test.describe("plumbers page location line", () => {
  test("with location already allowed: the reverse-geocoded city and state", async ({ browser }) => {
    const context = await browser.newContext({ geolocation: { latitude: 30.2672, longitude: -97.7431 } });
    await context.grantPermissions(["geolocation"]);
    const asked = await mockLookups(context, {
      reverse: { json: { city: "Austin", locality: "Austin", principalSubdivision: "Texas", countryName: "USA" } },
      ip: { json: { city: "Dallas", region: "Texas" } },
    });
    const page = await context.newPage();
    const positionRequests = await countPositionRequests(page);
    await page.goto("/plumbers");
    await expectLine(page, "Serving Austin, Texas");
    expect(await positionRequests()).toBe(1);
    expect(asked).toHaveLength(1);
    const url = new URL(asked[0]!);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      latitude: "30.2672",
      longitude: "-97.7431",
      localityLanguage: "en",
    });
    await context.close();
  });

  test("with location allowed but the geocoder failing: the IP lookup's city and region", async ({ browser }) => {
    const context = await browser.newContext({ geolocation: { latitude: 30.2672, longitude: -97.7431 } });
    await context.grantPermissions(["geolocation"]);
    const asked = await mockLookups(context, {
      reverse: { status: 503, json: { error: "unavailable" } },
      ip: { json: { city: "Denver", region: "Colorado", country_name: "United States" } },
    });
    const page = await context.newPage();
    await page.goto("/plumbers");
    await expectLine(page, "Serving Denver, Colorado");
    expect(asked.map((url) => url.split("?")[0])).toEqual([REVERSE_URL, IP_URL]);
    await context.close();
  });

  test("without permission: never prompts, asks the IP lookup, and shows the city alone when there is no region", async ({
    browser,
  }) => {
    const context = await browser.newContext();
    let release!: () => void;
    const asked = await mockLookups(context, {
      reverse: { json: { city: "Austin", principalSubdivision: "Texas" } },
      ip: { json: { city: "Reno" } },
      hold: new Promise((resolve) => (release = resolve)),
    });
    const page = await context.newPage();
    const positionRequests = await countPositionRequests(page);
    await page.goto("/plumbers");
    await expectLine(page, "Detecting Your Location...");
    await expect.poll(() => asked.length).toBe(1);
    release();
    await expectLine(page, "Serving Reno");
    expect(asked).toEqual([IP_URL]);
    expect(await positionRequests()).toBe(0);
    expect(await page.evaluate(async () => (await navigator.permissions.query({ name: "geolocation" })).state)).toBe(
      "prompt",
    );

    // The answer is kept for the session: the next page load makes no request.
    await page.reload();
    await expectLine(page, "Serving Reno");
    expect(asked).toEqual([IP_URL]);
    await context.close();
  });

  test("when every source fails: the generic local area, and no error shown", async ({ browser }) => {
    const context = await browser.newContext();
    await mockLookups(context, { ip: { status: 429, json: { error: true, reason: "RateLimited" } } });
    const page = await context.newPage();
    await page.goto("/plumbers");
    await waitForHydration(page);
    await expectLine(page, "Serving Your Local Area");
    await expect(page.locator("main section").first()).not.toContainText(/error|denied|fail|unavailable|429/i);
    await context.close();
  });

  test("the prerendered HTML claims no location, and without JavaScript the generic line shows", async ({
    browser,
    request,
  }) => {
    const html = await (await request.get("/plumbers")).text();
    expect(html).toContain("Detecting Your Location...");
    expect(html).not.toMatch(/Serving (?!Your Local Area)[A-Z]/);

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/plumbers");
    await expectLine(page, "Serving Your Local Area");
    await context.close();
  });

  test("when detection answers, only the line's text changes: the hero's heading and lead stay put", async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    let release!: () => void;
    await mockLookups(context, {
      ip: { json: { city: "Rancho Santa Margarita", region: "California" } },
      hold: new Promise((resolve) => (release = resolve)),
    });
    const page = await context.newPage();
    await page.goto("/plumbers");
    await waitForHydration(page);
    await expectLine(page, "Detecting Your Location...");
    const hero = page.locator("main section").first();
    const heroTextBoxes = () =>
      hero
        .locator("h1, h1 + p")
        .evaluateAll((elements) => elements.map((e) => JSON.stringify(e.getBoundingClientRect())));
    const before = await heroTextBoxes();
    await locationLine(page).evaluate((line) => {
      (window as unknown as { __lineChildren: Element[] }).__lineChildren = [...line.children];
    });
    release();
    await expectLine(page, "Serving Rancho Santa Margarita, California");
    expect(await heroTextBoxes()).toEqual(before);
    expect(
      await locationLine(page).evaluate((line) =>
        [...line.children].every(
          (child, index) => child === (window as unknown as { __lineChildren: Element[] }).__lineChildren[index],
        ),
      ),
    ).toBe(true);
    await context.close();
  });
});

test.describe("plumbers page", () => {
  test("shows the hero, four plumber cards and the emergency box", async ({ page, context }) => {
    await mockLookups(context, {});
    await page.goto("/plumbers");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Local Professional Plumbers");
    await expect(page.getByRole("link", { name: "Call a Plumber Near You" })).toHaveAttribute(
      "data-phone-placement",
      "plumber-hero",
    );

    const cards = page.getByTestId("plumber-card");
    await expect(cards).toHaveCount(4);
    const expected = [
      { rating: "4.9", specialties: ["Emergency Repairs", "Water Heaters", "Drain Cleaning"] },
      { rating: "4.8", specialties: ["Bathroom Renovations", "Fixture Installation", "Pipe Repair"] },
      { rating: "4.9", specialties: ["Smart Systems", "Commercial Work", "Pipe Installation"] },
      { rating: "4.7", specialties: ["Emergency Service", "Leak Detection", "Sewer Lines"] },
    ];
    const names = new Set<string>();
    for (const [index, plumber] of expected.entries()) {
      const card = cards.nth(index);
      const name = (await card.getByRole("heading", { level: 3 }).innerText()).trim();
      expect(name).not.toBe("");
      names.add(name);
      await expect(card.getByRole("img", { name: `Rated ${plumber.rating} out of 5` })).toBeVisible();
      await expect(card.getByText(plumber.rating, { exact: true })).toBeVisible();
      await expect(card.getByRole("list", { name: `${name}'s specialties` }).getByRole("listitem")).toHaveText(
        plumber.specialties,
      );
      const contact = card.getByRole("link", { name: "Contact Now" });
      await expect(contact).toHaveAttribute("href", `tel:${phone.e164}`);
      await expect(contact).toHaveAttribute("data-phone-placement", "plumber-list");
    }
    expect(names.size).toBe(4);

    const emergency = page.locator("#emergency");
    await expect(emergency.getByRole("heading", { level: 2 })).toHaveText("Need Emergency Service?");
    const call = emergency.getByRole("link", { name: /^Call Now/ });
    await expect(call).toHaveText(`Call Now: ${phone.display}`);
    await expect(call).toHaveAttribute("data-phone-placement", "plumber-list-bottom");
  });

  test("sets its title, description, keywords and a canonical link to /plumbers", async ({ page, context }) => {
    await mockLookups(context, {});
    await page.goto("/plumbers");
    await expect(page).toHaveTitle(/Local Professional Plumbers/);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      "content",
      /licensed and insured local plumbers/,
    );
    await expect(page.locator('meta[name="keywords"]')).toHaveAttribute("content", /plumber near me/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      `${toPublicSiteConfig(env).siteUrl}/plumbers`,
    );
  });

  test("every call link on the page sends phone_click with its placement", async ({ page, context }) => {
    await mockLookups(context, {});
    await recordAnalytics(page);
    await page.goto("/plumbers");
    await waitForHydration(page);
    const labels = await clickVisibleCallLinks(page);
    expect(labels).toEqual([
      "header_banner",
      "header",
      "plumber-hero",
      "plumber-list",
      "plumber-list",
      "plumber-list",
      "plumber-list",
      "plumber-list-bottom",
      "sticky_bottom_button",
    ]);
    const clicks = await recordedPhoneClicks(page);
    expect(clicks.map((click) => click.params.event_label)).toEqual(labels);
  });
});
