import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  clickVisibleCallLinks,
  mockLookups,
  recordAnalytics,
  recordedPhoneClicks,
  waitForHydration,
} from "./helpers.ts";

/** A content section, found by the heading that names it. */
function section(page: Page, title: string): Locator {
  return page.getByRole("region", { name: title, exact: true });
}

/** The h3 titles of a section's cards, in order. */
async function cardTitles(region: Locator): Promise<string[]> {
  return region.getByRole("heading", { level: 3 }).allInnerTexts();
}

/** Checks a grid's cards, in order: each title and its price label. */
async function expectPricedCards(cards: Locator, expected: [title: string, price: string][]): Promise<void> {
  await expect(cards).toHaveCount(expected.length);
  for (const [index, [title, price]] of expected.entries()) {
    await expect(cards.nth(index).getByRole("heading")).toHaveText(title);
    await expect(cards.nth(index)).toContainText(price);
  }
}

async function structuredData(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((block) => JSON.parse(block) as Record<string, unknown>);
}

const pages = [
  { path: "/about", h1: "About Plumbline", breadcrumb: "About Us" },
  { path: "/allrepairs", h1: "Get Expert Plumber Today", breadcrumb: "All Plumbing Repairs" },
  { path: "/toilet-services", h1: "Toilet Repair & Installation, Done Today", breadcrumb: "Toilet Services" },
  { path: "/water-heater-services", h1: "Water Heater Repair & Installation", breadcrumb: "Water Heater Services" },
  { path: "/drain-services", h1: "Drain Cleaning & Unclogging, Day or Night", breadcrumb: "Drain Services" },
  { path: "/sewer-services", h1: "Professional Sewer Line Services", breadcrumb: "Sewer Line Services" },
  { path: "/well-pump-services", h1: "Well Pump Repair & Installation", breadcrumb: "Well Pump Services" },
  {
    path: "/faucet-services",
    h1: "Sink, Faucet & Garbage Disposal Repair",
    breadcrumb: "Sink, Faucet & Disposal Services",
  },
  { path: "/gas-line-services", h1: "Gas Line Repair & Installation", breadcrumb: "Gas Line Services" },
  {
    path: "/water-softener-services",
    h1: "Water Softener Installation & Repair",
    breadcrumb: "Water Softener Services",
  },
  { path: "/handyman-plumber", h1: "Handyman Plumber Services You Can Trust", breadcrumb: "Handyman Plumber" },
  { path: "/hvac-services", h1: "Expert HVAC Services & Repair", breadcrumb: "HVAC Services" },
];

/** The placements of each page's call links, besides the banner, header and sticky bar every page has. */
const pageCallPlacements: Record<string, string[]> = {
  "/about": ["about_cta"],
  "/allrepairs": ["hero", "services", "contact_hero"],
  "/toilet-services": ["hero", "services", "contact_hero"],
  "/water-heater-services": ["hero", "services", "contact_hero"],
  "/drain-services": ["hero_drain", "services", "contact_hero"],
  "/sewer-services": ["hero", "services", "faqs_section", "contact_hero"],
  "/well-pump-services": ["hero", "services", "contact_hero"],
  "/faucet-services": ["hero", "services", "contact_hero"],
  "/gas-line-services": ["hero", "services", "contact_hero"],
  "/water-softener-services": ["hero", "services", "contact_hero"],
  "/handyman-plumber": ["hero", "services", "contact_hero"],
  "/hvac-services": ["hvac_hero", "contact_hero"],
};

test.describe("every landing page", () => {
  for (const { path, h1, breadcrumb } of pages) {
    test(`${path} has one h1, a breadcrumb, no review markup and tracked call links`, async ({ page }) => {
      await recordAnalytics(page);
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{80,}/);
      const data = await structuredData(page);
      const breadcrumbList = data.find((item) => item["@type"] === "BreadcrumbList");
      expect(JSON.stringify(breadcrumbList)).toContain(`"name":"${breadcrumb}"`);
      expect(JSON.stringify(data)).not.toMatch(/"Review"|"AggregateRating"/);
      await expect(page.locator("main")).not.toContainText("{company}");

      await waitForHydration(page);
      const placements = await clickVisibleCallLinks(page);
      expect(new Set(placements)).toEqual(
        new Set(["header_banner", "header", "sticky_bottom_button", ...pageCallPlacements[path]!]),
      );
      const clicks = await recordedPhoneClicks(page);
      expect(clicks.map((click) => click.params.event_label)).toEqual(placements);
      for (const click of clicks) expect(click.name).toBe("phone_click");
    });
  }
});

test("/about tells the story, shows four stats and three reasons, and has the about_cta call button", async ({
  page,
}) => {
  await page.goto("/about");
  const story = section(page, "Our Story");
  await expect(story).toContainText("founded in 2009");
  await expect(story).toContainText("Over 15 years");
  const stats = section(page, "Plumbline by the Numbers").getByRole("listitem");
  await expect(stats).toHaveCount(4);
  const expectedStats = [
    ["500+", "Happy Customers"],
    ["24/7", "Emergency Service"],
    ["15+", "Years Experience"],
    ["100%", "Licensed & Insured"],
  ];
  for (const [index, [value, label]] of expectedStats.entries()) {
    await expect(stats.nth(index).getByRole("paragraph")).toHaveText([value!, label!]);
  }
  expect(await cardTitles(section(page, "Why Customers Choose Us"))).toEqual([
    "Licensed & Insured",
    "Fast Response",
    "Quality Guarantee",
  ]);
  await expect(page.locator('main a[data-phone-placement="about_cta"]')).toHaveAttribute("href", /^tel:\+\d+$/);
});

test("/allrepairs has the 30+ years badge, the 4.9/5 (500+ reviews) rating and call buttons", async ({ page }) => {
  await page.goto("/allrepairs");
  const hero = page.locator("main section").first();
  await expect(hero.getByText("30+ Years Experience")).toBeVisible();
  await expect(hero.getByText("4.9/5 Rating (500+ Reviews)")).toBeVisible();
  await expect(hero.getByRole("link", { name: "Call for Same-Day Repair" })).toHaveAttribute("href", /^tel:/);
  await expect(section(page, "Repairs We Handle Every Day").locator("a[href^='tel:']")).toHaveCount(1);
});

test("/toilet-services lists six services with their starting prices", async ({ page }) => {
  await page.goto("/toilet-services");
  await expectPricedCards(section(page, "Toilet Services & Starting Prices").getByRole("listitem"), [
    ["Clogged Toilet", "Starting at $75"],
    ["Toilet Installation", "Starting at $150"],
    ["Toilet Repair & Parts", "Starting at $65"],
    ["Toilet Replacement", "Starting at $200"],
    ["Toilet Maintenance", "Starting at $55"],
    ["Emergency Toilet Service", "Emergency Rate"],
  ]);
});

test("/water-heater-services lists eight services and shows 'Serving {city}, {state}' in the hero", async ({
  page,
  context,
}) => {
  await mockLookups(context, { ip: { json: { city: "Tampa", region: "Florida", country_name: "United States" } } });
  await page.goto("/water-heater-services");
  await expect(section(page, "Water Heater Services").getByRole("listitem")).toHaveCount(8);
  const hero = page.locator("main section").first();
  await expect(hero.getByTestId("location-line")).toHaveText("Serving Tampa, Florida", { useInnerText: true });
});

test("/drain-services lists five priced services, each card a call link, and labels the hero call hero_drain", async ({
  page,
}) => {
  await page.goto("/drain-services");
  await expect(page.locator("main section").first().locator("a[data-phone-placement]")).toHaveAttribute(
    "data-phone-placement",
    "hero_drain",
  );
  const cards = section(page, "Drain Services & Prices").getByRole("listitem");
  await expectPricedCards(cards, [
    ["Clogged Sink", "Starting at $65"],
    ["Drain Cleaning", "Starting at $55"],
    ["Main Line Cleaning", "Starting at $150"],
    ["Drain Preventive Maintenance", "Starting at $55"],
    ["Emergency Services", "Emergency Rate"],
  ]);
  for (const card of await cards.all()) await expect(card.locator("a[href^='tel:']")).toHaveCount(1);
});

test.describe("/sewer-services", () => {
  test("has why-choose, services, typical problems, system types and a 2-step process", async ({ page }) => {
    await page.goto("/sewer-services");
    await expect(section(page, "Why Homeowners Call Us for Sewer Lines")).toBeVisible();
    await expect(section(page, "Why Choose Us")).toBeVisible();
    await expect(section(page, "Sewer Line Services").getByRole("listitem")).toHaveCount(6);
    await expect(section(page, "Typical Sewer Line Problems").getByRole("listitem")).toHaveCount(6);
    await expect(section(page, "Sewer Systems We Work On").getByRole("listitem")).toHaveCount(4);
    const steps = section(page, "Our Sewer Service Process").locator("ol > li");
    await expect(steps).toHaveCount(2);
    expect(await cardTitles(section(page, "Our Sewer Service Process"))).toEqual([
      "Inspect & Diagnose",
      "Repair & Restore",
    ]);
  });

  test("the FAQ accordion opens one answer at a time and closes the open one again", async ({ page }) => {
    await page.goto("/sewer-services");
    await waitForHydration(page);
    const faq = section(page, "Sewer Line FAQs");
    const items = faq.locator("details");
    const questions = items.locator("summary");
    await expect(questions).toHaveCount(5);
    const answerOf = (index: number) => items.nth(index).locator("summary + div");
    const expanded = () => items.evaluateAll((details) => details.map((item) => (item as HTMLDetailsElement).open));

    expect(await expanded()).toEqual([true, false, false, false, false]);
    await expect(answerOf(0)).toBeVisible();
    await expect(answerOf(1)).toBeHidden();

    await questions.nth(2).click();
    expect(await expanded()).toEqual([false, false, true, false, false]);
    await expect(answerOf(2)).toBeVisible();
    await expect(answerOf(2)).toContainText("Trenchless pipe lining");
    await expect(answerOf(0)).toBeHidden();

    await questions.nth(2).click();
    expect(await expanded()).toEqual([false, false, false, false, false]);
    await expect(answerOf(2)).toBeHidden();

    await questions.nth(4).click();
    await expect(answerOf(4)).toContainText("30-day workmanship warranty");
    await expect(faq.getByRole("link", { name: "Ask a Sewer Pro Now" })).toHaveAttribute(
      "data-phone-placement",
      "faqs_section",
    );
  });

  test("without JavaScript every answer is in the page, closed, and FAQPage data has the same questions", async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/sewer-services");
    const items = section(page, "Sewer Line FAQs").locator("details");
    const faqPage = (await structuredData(page)).find((item) => item["@type"] === "FAQPage") as {
      mainEntity: { name: string; acceptedAnswer: { text: string } }[];
    };
    expect(faqPage.mainEntity.map((entity) => entity.name)).toEqual(await items.locator("summary").allInnerTexts());
    for (const [index, entity] of faqPage.mainEntity.entries()) {
      await expect(items.nth(index).locator("summary + div")).toHaveText(entity.acceptedAnswer.text);
      if (index > 0) await expect(items.nth(index)).not.toHaveAttribute("open");
    }
    await context.close();
  });
});

test("/well-pump-services: 4.9/5 from 820+ customers, services, six problems, four systems, jet pumps to 110 feet", async ({
  page,
}) => {
  await page.goto("/well-pump-services");
  await expect(page.locator("main section").first().getByText("4.9/5 from 820+ Customers")).toBeVisible();
  await expect(section(page, "Well Pump Services").getByRole("listitem")).toHaveCount(6);
  await expect(section(page, "Common Well Pump Problems").getByRole("listitem")).toHaveCount(6);
  const systems = section(page, "Well Pump Systems We Service").getByRole("listitem");
  await expect(systems).toHaveCount(4);
  await expect(systems.filter({ hasText: "Jet Pumps" })).toContainText("wells up to 110 feet");
});

test("/faucet-services: services, six faucet problems, four faucet types", async ({ page }) => {
  await page.goto("/faucet-services");
  await expect(section(page, "Sink, Faucet & Disposal Services").getByRole("listitem")).toHaveCount(6);
  await expect(section(page, "Common Faucet Problems").getByRole("listitem")).toHaveCount(6);
  expect(await cardTitles(section(page, "Faucet Types We Repair"))).toEqual([
    "Compression Faucets",
    "Ball Faucets",
    "Cartridge Faucets",
    "Ceramic Disc Faucets",
  ]);
});

test("/gas-line-services: services, eight problems, an emergency notice, system types and six reviews", async ({
  page,
}) => {
  await page.goto("/gas-line-services");
  await expect(section(page, "Gas Line Services").getByRole("listitem")).toHaveCount(6);
  await expect(section(page, "Signs of a Gas Line Problem").getByRole("listitem")).toHaveCount(8);
  const notice = section(page, "Smell Gas? Leave First, Then Call");
  await expect(notice).toContainText("call 911 or your gas company");
  await expect(section(page, "Gas Piping We Work With").getByRole("listitem")).toHaveCount(4);
  const reviews = section(page, "500+ 5-Star Reviews").getByRole("listitem");
  await expect(reviews).toHaveCount(6);
  for (const review of await reviews.all()) {
    await expect(review.getByRole("img", { name: "Rated 5 out of 5" })).toBeVisible();
    await expect(review).toContainText(/ago$/);
  }
  await expect(page.locator("main section").first().getByText("500+ 5-Star Reviews")).toBeVisible();
});

test("/water-softener-services: four services, four problems with solutions, twelve brands", async ({ page }) => {
  await page.goto("/water-softener-services");
  await expect(section(page, "Water Softener Services").getByRole("listitem")).toHaveCount(4);
  const problems = section(page, "Hard Water Problems and Their Solutions").getByRole("listitem");
  await expect(problems).toHaveCount(4);
  for (const problem of await problems.all()) await expect(problem).toContainText("Solution:");
  await expect(section(page, "Brands We Service").getByRole("listitem")).toHaveCount(12);
});

test("/handyman-plumber: service cards with icon, title and description, six issues, four specialties, a call widget", async ({
  page,
}) => {
  await page.goto("/handyman-plumber");
  const cards = section(page, "Handyman Plumbing Services").getByRole("listitem");
  await expect(cards).toHaveCount(6);
  for (const card of await cards.all()) {
    await expect(card.locator("svg")).toHaveCount(1);
    await expect(card.getByRole("heading", { level: 3 })).not.toBeEmpty();
    await expect(card.getByRole("paragraph")).not.toBeEmpty();
  }
  await expect(section(page, "Common Issues We Fix").getByRole("listitem")).toHaveCount(6);
  await expect(section(page, "Our Specialties").getByRole("listitem")).toHaveCount(4);
  await expect(page.getByRole("heading", { name: "Got a To-Do List? Call a Handyman Plumber" })).toBeVisible();
});

test.describe("/hvac-services", () => {
  test("has the HVAC hero, the six-card grid and two shared sections before the footer", async ({ page }) => {
    await page.goto("/hvac-services");
    const hero = page.locator("main section").first();
    for (const text of ["24/7 Emergency Service", "4.9/5 Rating", "Certified HVAC Experts"]) {
      await expect(hero.getByText(text, { exact: true })).toBeVisible();
    }
    await expect(hero.getByRole("link", { name: "Get a Free Quote" })).toHaveAttribute(
      "data-phone-placement",
      "hvac_hero",
    );
    expect(await cardTitles(section(page, "Complete HVAC Services"))).toEqual([
      "Air Conditioning Repair",
      "Heating System Maintenance",
      "HVAC Installation",
      "Furnace Repair",
      "Air Quality Testing",
      "Duct Cleaning",
    ]);
    await expect(page.locator("main > section")).toHaveCount(4);
  });

  test("renames the banner and company on this page only, also after client-side navigation", async ({ page }) => {
    await page.goto("/hvac-services");
    await waitForHydration(page);
    await expect(page.locator('a[data-phone-placement="header_banner"]')).toHaveText("24/7 HVAC Services Available");
    await expect(page.locator("header").getByRole("link", { name: "HVACFix pros" })).toBeVisible();
    await expect(page.locator("footer")).toContainText("© 2024 HVACFix pros");
    await expect(page.getByRole("heading", { name: "Why Choose HVACFix pros" })).toBeVisible();
    await expect(page.locator("body")).not.toContainText("Plumbline");

    await page.locator("footer").getByRole("link", { name: "About Us" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About Plumbline");
    await expect(page.locator('a[data-phone-placement="header_banner"]')).toHaveText("We Are Available Now");
    await expect(page.locator("header").getByRole("link", { name: "Plumbline" })).toBeVisible();
  });

  test("a client-side navigation to another landing page loads its module and asks for no route data", async ({
    page,
  }) => {
    await page.goto("/hvac-services");
    await waitForHydration(page);
    const routeModules: string[] = [];
    const dataRequests: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith(".data")) dataRequests.push(pathname);
      if (/^\/assets\/about-[\w-]+\.js$/.test(pathname)) routeModules.push(pathname);
    });
    // A full page load would drop this mark.
    await page.evaluate(() => Object.assign(window, { __beforeNavigation: true }));

    await page.locator("footer").getByRole("link", { name: "About Us" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About Plumbline");
    expect(await page.evaluate(() => "__beforeNavigation" in window)).toBe(true);
    expect(routeModules).toHaveLength(1);
    expect(dataRequests).toEqual([]);
  });

  test("other landing pages keep the default banner and company", async ({ page }) => {
    for (const path of ["/sewer-services", "/about"]) {
      await page.goto(path);
      await expect(page.locator('a[data-phone-placement="header_banner"]')).toHaveText("We Are Available Now");
      await expect(page.locator("header").getByRole("link", { name: "Plumbline" })).toBeVisible();
      await expect(page.locator("body")).not.toContainText("HVACFix");
    }
  });
});
